package live

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
)

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randStr(t *testing.T, n int, alphabet string) string {
	t.Helper()
	b := make([]byte, n)
	for i := range b {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			t.Fatal(err)
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

// planted is one credential put into the test root: where, and its value.
type planted struct{ where, value string }

// plantCredentials fills a root and an environment with 40 fresh random
// credentials in every place the collector reads.
func plantCredentials(t *testing.T, root string) ([]string, []planted) {
	r := func(n int) string { return randStr(t, n, alnum) }
	var ps []planted
	var env []string
	setEnv := func(name, v string) {
		env = append(env, name+"="+v)
		ps = append(ps, planted{"env " + name, v})
	}
	setEnv("GITHUB_TOKEN", "ghp_"+r(36))
	setEnv("GH_TOKEN", "github_pat_"+r(82))
	setEnv("GITHUB_APP_TOKEN", "ghs_"+r(36))
	setEnv("COPILOT_OAUTH", "gho_"+r(36))
	setEnv("GHU_TOKEN", "ghu_"+r(36))
	setEnv("GH_REFRESH", "ghr_"+r(76))
	setEnv("OPENAI_API_KEY", "sk-proj-"+r(48))
	setEnv("ANTHROPIC_API_KEY", "sk-ant-api03-"+r(93))
	setEnv("AWS_ACCESS_KEY_ID", "AKIA"+randStr(t, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"))
	setEnv("AWS_SECRET_ACCESS_KEY", r(40))
	setEnv("AWS_SESSION_TOKEN", r(200))
	setEnv("DATABASE_PASSWORD", r(24))
	setEnv("STRIPE_SECRET_KEY", "sk_live_"+r(24))
	setEnv("SLACK_BOT_TOKEN", "xoxb-"+r(12)+"-"+r(24))
	setEnv("NPM_TOKEN", "npm_"+r(36))
	proxyPW := r(18)
	env = append(env, "HTTPS_PROXY=http://agent:"+proxyPW+"@127.0.0.1:3128", "HOME=/home/dev",
		"GITHUB_WORKSPACE=/work/repo", "SSH_AUTH_SOCK=/tmp/agent.sock")
	ps = append(ps, planted{"env HTTPS_PROXY password", proxyPW})

	file := func(rel, content string, values ...string) {
		p := filepath.Join(root, rel)
		mustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			ps = append(ps, planted{"file " + rel, v})
		}
	}
	h := "home/dev/"
	akid, sak := "AKIA"+randStr(t, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), r(40)
	file(h+".aws/credentials", fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n", akid, sak), akid, sak)
	dockerPW := "ghp_" + r(36)
	file(h+".docker/config.json", `{"auths":{"ghcr.io":{"auth":"`+base64.StdEncoding.EncodeToString([]byte("dev:"+dockerPW))+`"}}}`, dockerPW)
	gho := "gho_" + r(36)
	file(h+".config/gh/hosts.yml", "github.com:\n  oauth_token: "+gho+"\n  user: dev\n", gho)
	kubeTok, kubeKey := r(8)+"."+r(16), base64.StdEncoding.EncodeToString([]byte(r(64)))
	file(h+".kube/config", "users:\n- name: dev\n  user:\n    token: "+kubeTok+"\n    client-key-data: "+kubeKey+"\n", kubeTok, kubeKey)
	netrc1, netrc2 := "ghp_"+r(36), r(20)
	file(h+".netrc", "machine github.com login dev password "+netrc1+"\nmachine db.internal login dev password "+netrc2+"\n", netrc1, netrc2)
	npm := "npm_" + r(36)
	file(h+".npmrc", "//registry.npmjs.org/:_authToken="+npm+"\n", npm)
	pypi := "pypi-" + r(60)
	file(h+".pypirc", "[pypi]\nusername = __token__\npassword = "+pypi+"\n", pypi)
	gitc := "ghp_" + r(36)
	file(h+".git-credentials", "https://dev:"+gitc+"@github.com\n", gitc)
	refresh, csecret := "1//"+r(60), "GOCSPX-"+r(28)
	file(h+".config/gcloud/application_default_credentials.json", `{"client_id":"x.apps.googleusercontent.com","client_secret":"`+csecret+`","refresh_token":"`+refresh+`","type":"authorized_user"}`, refresh, csecret)
	claudeAT, claudeRT := "sk-ant-oat01-"+r(90), "sk-ant-ort01-"+r(90)
	file(h+".claude/.credentials.json", `{"claudeAiOauth":{"accessToken":"`+claudeAT+`","refreshToken":"`+claudeRT+`","expiresAt":1795176000000}}`, claudeAT, claudeRT)
	codex := "sk-proj-" + r(48)
	file(h+".codex/auth.json", `{"OPENAI_API_KEY":"`+codex+`"}`, codex)
	cargo := "cio" + r(32)
	file(h+".cargo/credentials.toml", "[registry]\ntoken = \""+cargo+"\"\n", cargo)
	vault := "hvs." + r(90)
	file(h+".vault-token", vault+"\n", vault)
	remotePW, insteadPW, headerPW, headerTok := r(30), r(26), r(22), "ghs_"+r(36)
	file(h+".gitconfig", "[remote \"mirror\"]\n\turl = https://dev:"+remotePW+"@git.example.com/x.git\n"+
		// A URL rewrite and a header scope put the URL, password and all,
		// in the section name the report shows.
		"[url \"https://dev:"+insteadPW+"@git.corp.internal/\"]\n\tinsteadOf = https://git.corp.internal/\n"+
		"[http \"https://ci:"+headerPW+"@mirror.corp.internal/\"]\n\textraheader = AUTHORIZATION: bearer "+headerTok+"\n",
		remotePW, insteadPW, headerPW, headerTok)
	checkout := "ghs_" + r(36)
	file("work/repo/.git/config", "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic "+
		base64.StdEncoding.EncodeToString([]byte("x-access-token:"+checkout))+"\n", checkout)
	sa := "eyJhbGciOiJSUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"system:serviceaccount:a:b","aud":["https://kubernetes.default.svc"],"nonce":"`+r(20)+`"}`)) + "." + r(86)
	file("var/run/secrets/kubernetes.io/serviceaccount/token", sa, sa)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + base64.StdEncoding.EncodeToString(append([]byte("openssh-key-v1\x00\x00\x00\x00\x04none"), r(180)...)) + "\n-----END OPENSSH PRIVATE KEY-----\n"
	file(h+".ssh/id_ed25519", key, strings.Split(key, "\n")[1])
	// A malformed file: its secret is not detected, and the parse error
	// that reports it must not quote it.
	broken := "ghp_" + r(36)
	file(h+".config/github-copilot/hosts.json", `{"github.com": {"oauth_token": "`+broken+`", }`, broken)
	return env, ps
}

// TestNoSecretValueInOutput plants 40 credentials and checks that the
// collector finds them and that no value, nor a piece of one, nor its
// base64 form appears in anything it returns.
func TestNoSecretValueInOutput(t *testing.T) {
	root := t.TempDir()
	env, ps := plantCredentials(t, root)
	if len(ps) < 30 {
		t.Fatalf("planted %d credentials, want ≥ 30", len(ps))
	}
	l, creds, errs := Collect(context.Background(), Options{Root: root, Env: env, Workspace: "/work/repo"})
	js, err := json.Marshal(golden{l, creds, errs})
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"json": string(js), "go": fmt.Sprintf("%+v %+v %+v", *l, creds, errs)}
	for _, p := range ps {
		probes := []string{p.value, base64.StdEncoding.EncodeToString([]byte(p.value))}
		if len(p.value) >= 24 {
			probes = append(probes, p.value[len(p.value)/2:len(p.value)/2+12])
		}
		for name, out := range outputs {
			for _, s := range probes {
				if strings.Contains(out, s) {
					t.Errorf("%s output holds (part of) the value planted in %s", name, p.where)
				}
			}
		}
	}
	fps := map[string]bool{}
	for _, c := range creds {
		fps[c.Fingerprint] = true
		if c.Loc.File != "live/credentials" || c.Loc.Line != 1 || !c.ReadableByAgent {
			t.Errorf("credential %q: loc %+v readable %v", c.Context, c.Loc, c.ReadableByAgent)
		}
	}
	for _, p := range ps[:len(ps)-1] { // the last one sits in a malformed file
		if !fps[secrets.Fingerprint(p.value)] && !strings.Contains(p.where, "ssh") && !strings.Contains(p.where, "service") {
			t.Errorf("credential planted in %s not found", p.where)
		}
	}
	t.Logf("planted %d, found %d credentials", len(ps), len(creds))
	if len(creds) < 30 {
		t.Errorf("found %d credentials, want ≥ 30", len(creds))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "hosts.json") {
		t.Errorf("errors = %+v, want the malformed hosts.json", errs)
	}
}
