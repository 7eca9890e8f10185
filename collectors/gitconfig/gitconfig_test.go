package gitconfig

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Fake tokens of the fixtures, shaped like real ones.
const (
	ghs = "ghs_IBXuDL7DxtpYlSXpfKtHF4vUCsMehGAkWvj7"
	ghp = "ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR"
	gho = "gho_ljoQoaF1LlqsajAIxNKu8iS2G8NPRVdD53X8"
	pw  = "Xk9-fq2Lm7pZr4Tw"
)

func detect(t *testing.T, token string) model.SecretRef {
	t.Helper()
	r := secrets.Detect(token)
	if r == nil {
		t.Fatalf("secrets.Detect does not recognise the fixture token %s…", token[:6])
	}
	return *r
}

func mark(r model.SecretRef) string { return marker(&r) }

func collectFixture(t *testing.T, name, as string) *model.Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "gitconfig", name))
	if err != nil {
		t.Fatal(err)
	}
	doc := &model.Document{}
	if err := (Collector{}).Collect(context.Background(), as, data, doc); err != nil {
		t.Fatalf("Collect(%s): %v", name, err)
	}
	return doc
}

func TestFixtures(t *testing.T) {
	at := func(f string, line int) model.Loc { return model.Loc{File: f, Line: line} }
	const git, ins = ".git/config", "home/.gitconfig"
	ghsRef, ghpRef, ghoRef := detect(t, ghs), detect(t, ghp), detect(t, gho)
	pwRef := model.SecretRef{Kind: "url-password", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(pw)}
	cred := func(r model.SecretRef, ctx string, l model.Loc) model.Credential {
		return model.Credential{SecretRef: r, Where: "git-config", Context: ctx, ReadableByAgent: true, Loc: l}
	}
	tests := []struct {
		fixture, as string
		want        model.GitConfig
		creds       []model.Credential
	}{
		{"checkout-persisted.gitconfig", git, model.GitConfig{
			Loc:          at(git, 1),
			ExtraHeaders: []model.Str{{Value: "http.https://github.com/.extraheader", Loc: at(git, 12)}},
		}, []model.Credential{cred(ghsRef, "git config http.https://github.com/.extraheader", at(git, 12))}},
		{"checkout-v6.gitconfig", "sub/.git/config", model.GitConfig{
			Loc:      at("sub/.git/config", 1),
			Includes: []model.Str{{Value: "/home/runner/work/_temp/git-credentials-5f3c2a1e-8d4b-4f0e-9c6a-2b7d1e0f3a59.config", Loc: at("sub/.git/config", 10)}},
		}, nil},
		{"insecure.gitconfig", ins, model.GitConfig{
			Loc: at(ins, 1),
			CredentialHelpers: []model.Str{
				{Value: "store", Loc: at(ins, 7)},
				{Value: "!f() { echo username=x-access-token; echo password=" + mark(ghoRef) + "; }; f", Loc: at(ins, 9)},
			},
			CredentialURLs: []model.Str{
				{Value: "https://x-access-token:" + mark(ghpRef) + "@github.com/", Loc: at(ins, 11)},
				{Value: "https://agent:" + mark(pwRef) + "@git.example.com/team/repo.git", Loc: at(ins, 14)},
			},
			Includes: []model.Str{{Value: "~/.gitconfig.local", Loc: at(ins, 17)}},
		}, []model.Credential{
			cred(ghoRef, "git config credential.https://github.com.helper", at(ins, 9)),
			cred(ghpRef, `git config [url "https://x-access-token:`+mark(ghpRef)+`@github.com/"]`, at(ins, 11)),
			cred(pwRef, "git config remote.origin.url", at(ins, 14)),
		}},
		{"hardened.gitconfig", "hardened.gitconfig", model.GitConfig{Loc: at("hardened.gitconfig", 1)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			doc := collectFixture(t, tt.fixture, tt.as)
			if diff := cmp.Diff([]model.GitConfig{tt.want}, doc.GitConfigs); diff != "" {
				t.Errorf("git config (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.creds, doc.Credentials); diff != "" {
				t.Errorf("credentials (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoSecretInModel(t *testing.T) {
	doc := collectFixture(t, "insecure.gitconfig", ".gitconfig")
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{ghp, gho, pw} {
		if strings.Contains(string(b), s) {
			t.Errorf("the document holds the secret %s…", s[:6])
		}
	}
}

func TestFacts(t *testing.T) {
	basic := func(s string) string { return "AUTHORIZATION: basic " + b64(s) }
	tests := []struct {
		name  string
		in    string
		kinds []string // kinds of the credentials found
		get   func(model.GitConfig) any
		want  any
	}{
		{"checkout token of unknown format", "[http \"https://github.com/\"]\n\textraheader = " + basic("x-access-token:v1.0123456789abcdef0123456789abcdef01234567") + "\n",
			[]string{"github-checkout-token"}, func(g model.GitConfig) any { return len(g.ExtraHeaders) }, 1},
		{"basic password, bearer token", "[http]\n\textraheader = " + basic("bob:hunter2hunter2") + "\n\textraheader = Authorization: Bearer abcdefgh12345678\n",
			[]string{"basic-auth", "bearer-token"}, func(g model.GitConfig) any { return g.ExtraHeaders[1].Value }, "http.extraheader"},
		{"masked header is not a credential", "[http]\n\textraheader = AUTHORIZATION: basic ***\n", nil,
			func(g model.GitConfig) any { return len(g.ExtraHeaders) }, 1},
		{"empty helper resets the ones before it in its scope", "[credential]\n\thelper = store\n[credential \"https://x\"]\n\thelper = cache\n[credential]\n\thelper =\n\thelper = osxkeychain\n", nil,
			func(g model.GitConfig) any { return g.CredentialHelpers }, []model.Str{
				{Value: "cache", Loc: model.Loc{File: "c", Line: 4}}, {Value: "osxkeychain", Loc: model.Loc{File: "c", Line: 7}},
			}},
		{"token as user name, token in query, scp-like and reference URLs", "[remote \"a\"]\n\turl = https://" + ghp + "@github.com/o/r\n" +
			"[remote \"b\"]\n\turl = https://host/r?access_token=Zq8xW3vN6mK1pL4t&x=1\n" +
			"[remote \"c\"]\n\turl = git@github.com:o/r.git\n\tpushurl = https://u:${TOKEN}@h/r\n",
			[]string{"github-pat-classic", "generic-secret"}, func(g model.GitConfig) any {
				var out []string
				for _, u := range g.CredentialURLs {
					out = append(out, u.Value)
				}
				return out
			}, []string{
				"https://" + mark(*secrets.Detect(ghp)) + "@github.com/o/r",
				"https://host/r?access_token=" + mark(*secrets.DetectNamed("access_token", "Zq8xW3vN6mK1pL4t")) + "&x=1",
			}},
		{"proxy password and a token under another key", "[http]\n\tproxy = http://me:Pr0xy-Pa55w0rd@proxy:3128\n[github]\n\ttoken = " + ghp + "\n",
			[]string{"url-password", "github-pat-classic"}, func(g model.GitConfig) any { return len(g.CredentialURLs) }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{}
			if err := (Collector{}).Collect(context.Background(), "c", []byte(tt.in), doc); err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, c := range doc.Credentials {
				kinds = append(kinds, c.Kind)
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("credential kinds (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, tt.get(doc.GitConfigs[0])); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// marker is how secrets.Redact names a hidden secret.
func marker(r *model.SecretRef) string {
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}
