package live

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestDecodeCaps(t *testing.T) {
	names, beyond, all, err := decodeCaps("00000000a80425fb")
	if err != nil || all || len(beyond) != 0 || len(names) != 14 {
		t.Errorf("docker default: %q %q %v %v", names, beyond, all, err)
	}
	_, beyond, all, _ = decodeCaps("00000000a82425fb") // + SYS_ADMIN
	if all || !cmp.Equal(beyond, []string{"SYS_ADMIN"}) {
		t.Errorf("+SYS_ADMIN: %q %v", beyond, all)
	}
	if _, _, all, _ = decodeCaps("000001ffffffffff"); !all {
		t.Error("full set not recognised")
	}
	if _, _, _, err := decodeCaps("zz"); err == nil {
		t.Error("bad hex accepted")
	}
}

func TestProcNet(t *testing.T) {
	if got := hexIPv4("010011AC"); got != "172.17.0.1" {
		t.Errorf("hexIPv4 = %s", got)
	}
	tcp6 := "  sl  local_address                         remote_address                        st\n" +
		"   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n" +
		"   1: 0000000000000000FFFF00000100007F:0035 00000000000000000000000000000000:0000 01 00000000:00000000 00:00000000 00000000     0        0 1 1\n"
	want := []model.Listener{{Addr: "[::1]:8080", Loopback: true}}
	if d := cmp.Diff(want, listeners(tcp6)); d != "" {
		t.Errorf("listeners (-want +got):\n%s", d)
	}
}

func TestParseGitConfig(t *testing.T) {
	got := parseGitConfig("[core]\n\tbare = false\n# c\n[includeIf \"gitdir:/w/.git\"]\n\tpath = \"/t/x.config\"\n[http.https://h/]\n\tExtraHeader = A: b\n")
	want := []gitEntry{
		{section: "core", key: "bare", value: "false"},
		{section: "includeif", sub: "gitdir:/w/.git", key: "path", value: "/t/x.config"},
		{section: "http", sub: "https://h/", key: "extraheader", value: "A: b"},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(gitEntry{})); d != "" {
		t.Errorf("parseGitConfig (-want +got):\n%s", d)
	}
}

func TestMountinfoUnescape(t *testing.T) {
	if got := unescape(`/home/a\040b/x\134y`); got != `/home/a b/x\y` {
		t.Errorf("unescape = %q", got)
	}
	if got := unescape(`/tail\04`); got != `/tail\04` {
		t.Errorf("short escape = %q", got)
	}
}

func TestProxyHostDropsCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pw@proxy:3128": "proxy:3128", "proxy.corp:8080": "proxy.corp:8080", "http://[::1]:3128/": "[::1]:3128",
	} {
		if got := proxyHost(in); got != want || strings.Contains(got, "pw") {
			t.Errorf("proxyHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeyEncrypted(t *testing.T) {
	if keyEncrypted("RSA ", []byte("Proc-Type: 4,ENCRYPTED\n")) != true {
		t.Error("PEM ENCRYPTED header missed")
	}
	if keyEncrypted("OPENSSH ", []byte("b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=")) {
		t.Error("cipher none taken for encrypted")
	}
	if !keyEncrypted("OPENSSH ", []byte("b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHI=")) {
		t.Error("aes256-ctr taken for unencrypted")
	}
}

// FuzzParsers feeds arbitrary bytes to every text parser of the package:
// none may panic, and what they return must be consistent.
func FuzzParsers(f *testing.F) {
	f.Add("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n")
	f.Add("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eDp5\n")
	f.Add("eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjE3OTUxNzYwMDB9.c2ln")
	f.Add("   0: 0100007F:1F90 00000000:0000 0A 0 0 0 0 0 1 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range parseMountinfo(s) {
			if m.target == "" && m.fstype == "" {
				t.Fatal("mount entry without target or type")
			}
		}
		_ = parseGitConfig(s)
		for _, l := range listeners(s) {
			if l.Addr == "" {
				t.Fatal("listener without address")
			}
		}
		if cl, ok := decodeJWT(s); ok && cl == nil {
			t.Fatal("decodeJWT ok without claims")
		}
		_ = unescape(s)
		_ = proxyHost(s)
		_, _, _, _ = decodeCaps(s)
		_ = statusFields([]byte(s))
		_ = keyEncrypted("OPENSSH ", []byte(s))
		_, _ = parseTarget(s, "blocked")
	})
}
