package secrets

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Every token in these tests is FAKE: a real prefix followed by random
// characters from a seeded generator. None was ever issued by a provider,
// and GitHub tokens fail their built-in checksum. Nothing here is pasted:
// the source holds prefixes and alphabets only.

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerS = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lowerS + digits
	b64    = alnum + "+/"
	b64url = alnum + "-_"
	hexa   = "0123456789abcdef"
	base32 = upper + "234567"
)

type faker struct{ r *rand.Rand }

func newFaker(seed uint64) *faker { return &faker{rand.New(rand.NewPCG(seed, 0x5a5d))} }

func (f *faker) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[f.r.IntN(len(alphabet))]
	}
	return string(b)
}

func (f *faker) ghp() string { return "ghp_" + f.s(alnum, 36) }
func (f *faker) gho() string { return "gho_" + f.s(alnum, 36) }
func (f *faker) ghu() string { return "ghu_" + f.s(alnum, 36) }
func (f *faker) ghs() string { return "ghs_" + f.s(alnum, 36) }
func (f *faker) ghr() string { return "ghr_" + f.s(alnum, 36) }

// githubPAT is the fine-grained form: github_pat_ + 22 + _ + 59.
func (f *faker) githubPAT() string {
	return "github_pat_11" + f.s(upper+digits, 20) + "_" + f.s(alnum, 59)
}

// ghsStateless is the 2026 installation token: ghs_<app id>_<JWT>.
func (f *faker) ghsStateless() string {
	return "ghs_" + f.s(digits, 7) + "_" + f.jwt(3600, true, 342)
}

func (f *faker) akia() string { return "AKIA" + f.s(base32, 16) }
func (f *faker) asia() string { return "ASIA" + f.s(base32, 16) }

func (f *faker) openaiLegacy() string { return "sk-" + f.s(alnum, 48) }
func (f *faker) openaiProject() string {
	return "sk-proj-" + f.s(alnum, 60) + f.s(b64url, 60) + f.s(alnum, 4)
}
func (f *faker) openaiSvc() string {
	return "sk-svcacct-" + f.s(alnum, 60) + f.s(b64url, 40) + f.s(alnum, 4)
}

// anthropic keys here are 90 characters after the version, not the real
// 93+"AA", so vendor push-protection patterns do not fire on fixtures.
func (f *faker) anthropic(kind string) string {
	return "sk-ant-" + kind + "-" + f.s(alnum, 40) + f.s(b64url, 46) + f.s(alnum, 4)
}

// slack builds xox<letter>- tokens; canonical has the real digit groups,
// otherwise a shape our rule accepts but vendor scanners do not.
func (f *faker) slack(letter byte, canonical bool) string {
	if canonical {
		return fmt.Sprintf("xox%c-%s-%s-%s", letter, f.s(digits, 12), f.s(digits, 13), f.s(alnum, 24))
	}
	return fmt.Sprintf("xox%c-%s", letter, f.s(alnum, 40))
}

func (f *faker) glpat() string { return "glpat-" + f.s(alnum, 16) + "." + f.s(alnum, 15) }
func (f *faker) npm() string   { return "npm_" + f.s(alnum, 40) }
func (f *faker) pypi() string  { return "pypi-" + f.s(b64url, 84) }
func (f *faker) aiza() string  { return "AIza" + f.s(b64url, 35) }

func (f *faker) hex(n int) string { return f.s(hexa, n) }

func (f *faker) uuid() string {
	h := f.hex(32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

// password is a random 20-character alphanumeric password.
func (f *faker) password() string { return f.s(lowerS, 2) + f.s(alnum, 16) + f.s(digits, 2) }

// jwt builds header.payload.signature; life is exp-iat in seconds, withExp
// false leaves exp out, sigLen picks HS256 (43) or RS256 (342) lengths.
func (f *faker) jwt(life int64, withExp bool, sigLen int) string {
	enc := base64.RawURLEncoding.EncodeToString
	alg := "HS256"
	if sigLen > 43 {
		alg = "RS256"
	}
	hdr := fmt.Sprintf(`{"alg":%q,"typ":"JWT","kid":%q}`, alg, f.s(alnum, 12))
	iat := int64(1767225600) + f.r.Int64N(1_000_000)
	claims := fmt.Sprintf(`{"iss":"https://issuer.corp.internal","sub":"system:serviceaccount:agents:%s","aud":"agent","iat":%d`, f.s(lowerS, 6), iat)
	if withExp {
		claims += fmt.Sprintf(`,"exp":%d`, iat+life)
	}
	claims += fmt.Sprintf(`,"jti":%q}`, f.uuid())
	return enc([]byte(hdr)) + "." + enc([]byte(claims)) + "." + f.s(b64url, sigLen)
}

// jwtNoIat has exp but no iat.
func (f *faker) jwtNoIat() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		enc([]byte(fmt.Sprintf(`{"sub":"%s","exp":%d}`, f.s(lowerS, 8), 1767225600+f.r.Int64N(1000)))) + "." + f.s(b64url, 43)
}

// pem builds a private key block; nl is the line separator ("\n" or the
// two characters `\n` of a JSON or YAML escape).
func (f *faker) pem(label, nl string) string {
	var b strings.Builder
	b.WriteString("-----BEGIN " + label + " PRIVATE KEY-----" + nl)
	body := "MII" + f.s(b64, 64*6-3)
	for i := 0; i < len(body); i += 64 {
		b.WriteString(body[i:min(i+64, len(body))] + nl)
	}
	b.WriteString(f.s(b64, 20) + "==" + nl)
	b.WriteString("-----END " + label + " PRIVATE KEY-----")
	return b.String()
}

func basic(user, pass string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
}
