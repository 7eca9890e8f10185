package dockerfile

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestCollectCases(t *testing.T) {
	const f = "Dockerfile"
	tests := []struct {
		name string
		src  string
		want model.Image
	}{{
		name: "stages scratch and inherited user",
		src: `FROM golang:1.22 AS Build
USER builder
RUN go build ./...
FROM scratch AS empty
FROM build AS final
COPY --from=empty / /
`,
		want: model.Image{
			Loc:        loc(f, 1),
			BaseImages: []model.BaseImage{{Ref: "golang:1.22", Tag: "1.22", Stage: "build", Loc: loc(f, 1)}},
			FinalUser:  &model.Str{Value: "builder", Loc: loc(f, 2)},
			RunUser:    &model.Str{Value: "builder", Loc: loc(f, 2)},
		},
	}, {
		name: "last user of the final stage wins, earlier stage users do not leak",
		src: `FROM alpine:3.20 AS a
USER nobody
FROM registry.local:5000/team/base
USER app
USER root
`,
		want: model.Image{
			Loc: loc(f, 1),
			BaseImages: []model.BaseImage{
				{Ref: "alpine:3.20", Tag: "3.20", Stage: "a", Loc: loc(f, 1)},
				{Ref: "registry.local:5000/team/base", Loc: loc(f, 3)},
			},
			FinalUser: &model.Str{Value: "root", Loc: loc(f, 5)},
			RunUser:   &model.Str{Value: "root", Loc: loc(f, 5)},
		},
	}, {
		name: "final stage without USER from an image is root",
		src:  "FROM alpine AS a\nUSER app\nFROM debian:12\n",
		want: model.Image{
			Loc: loc(f, 1),
			BaseImages: []model.BaseImage{
				{Ref: "alpine", Stage: "a", Loc: loc(f, 1)},
				{Ref: "debian:12", Tag: "12", Loc: loc(f, 3)},
			},
		},
	}, {
		name: "global ARG expands FROM, unresolved stays as written, bad digest is not pinned",
		src: `ARG BASE=python:3.12-slim
ARG TAG
FROM $BASE
FROM node:${TAG}
FROM ubuntu@sha256:short
`,
		want: model.Image{
			Loc: loc(f, 3),
			BaseImages: []model.BaseImage{
				{Ref: "python:3.12-slim", Tag: "3.12-slim", Loc: loc(f, 3)},
				{Ref: "node:${TAG}", Tag: "${TAG}", Loc: loc(f, 4)},
				{Ref: "ubuntu@sha256:short", Loc: loc(f, 5)},
			},
			Env: []model.EnvVar{{Name: "BASE", Loc: loc(f, 1)}},
		},
	}, {
		name: "a credential ARG without a default is kept once a RUN uses it, not before, not a longer name",
		src: `FROM alpine
ARG GITHUB_TOKEN
ARG NPM_TOKEN
ARG TOKEN_FILE
ARG UNUSED_TOKEN
RUN echo "$GITHUB_TOKEN" | gh auth login --with-token
RUN npm config set //registry.npmjs.org/:_authToken=${NPM_TOKEN} && cat $TOKEN_FILE && echo $UNUSED_TOKENS
`,
		want: model.Image{
			Loc:        loc(f, 1),
			BaseImages: []model.BaseImage{{Ref: "alpine", Loc: loc(f, 1)}},
			Env: []model.EnvVar{
				{Name: "GITHUB_TOKEN", SensitiveName: true, Loc: loc(f, 2)},
				{Name: "NPM_TOKEN", SensitiveName: true, Loc: loc(f, 3)},
			},
		},
	}, {
		name: "env forms, quoting, references and defaults",
		src: `FROM alpine
ENV OLD_STYLE some value here
ENV API_TOKEN="` + fakePAT + `" PLAIN=1
ENV FROM_ARG=${GH_TOKEN}
ARG SECRET_KEY='kq8Zt2Vx9Lm4Rb7Nw3Hp'
ARG WITH_DEFAULT=${X:-` + fakePAT + `}
ARG NO_DEFAULT
`,
		want: model.Image{
			Loc:        loc(f, 1),
			BaseImages: []model.BaseImage{{Ref: "alpine", Loc: loc(f, 1)}},
			Env: []model.EnvVar{
				{Name: "OLD_STYLE", Loc: loc(f, 2)},
				{Name: "API_TOKEN", SensitiveName: true, Secret: pat(), Loc: loc(f, 3)},
				{Name: "PLAIN", Loc: loc(f, 3)},
				{Name: "FROM_ARG", Loc: loc(f, 4)},
				{Name: "SECRET_KEY", SensitiveName: true, Loc: loc(f, 5), Secret: secrets.DetectNamed("SECRET_KEY", "kq8Zt2Vx9Lm4Rb7Nw3Hp")},
				{Name: "WITH_DEFAULT", Secret: pat(), Loc: loc(f, 6)},
			},
		},
	}, {
		name: "pipe forms: exec form, heredoc, wget to python, process substitution; benign pipes ignored",
		src: `FROM alpine
RUN ["/bin/sh", "-c", "wget -qO- https://x.example/i.py | python3 -"]
RUN <<EOF
set -e
curl -sSL https://get.example.sh | bash
EOF
RUN bash <(curl -s https://x.example/a.sh)
RUN curl -s https://x.example/a.tgz | tar xz && echo ok | sh
RUN python3 <<EOF
print("curl x | sh")
EOF
RUN curl -fsSL https://x.example/k.gpg | gpg --dearmor -o /k.gpg
RUN curl -fsSL -H "Authorization: token ` + fakePAT + `" https://x.example/i.sh | sh
`,
		want: model.Image{
			Loc:        loc(f, 1),
			BaseImages: []model.BaseImage{{Ref: "alpine", Loc: loc(f, 1)}},
			PipeToShell: []model.Str{
				str("wget -qO- https://x.example/i.py | python3 -", f, 2),
				str("curl -sSL https://get.example.sh | bash", f, 3),
				str("bash <(curl -s https://x.example/a.sh)", f, 7),
				str(secrets.Redact(`curl -fsSL -H "Authorization: token `+fakePAT+`" https://x.example/i.sh | sh`), f, 13),
			},
		},
	}, {
		name: "ADD urls: remote kept redacted, local ignored",
		src: `FROM alpine
ADD --checksum=sha256:abc https://example.com/tool.tgz /opt/
ADD https://ci:hunter2hunter2@example.com/x.tgz?token=` + fakePAT + `&v=2 /opt/
ADD ./local.tgz /opt/
ADD ["HTTP://EXAMPLE.COM/a", "/a"]
`,
		want: model.Image{
			Loc:        loc(f, 1),
			BaseImages: []model.BaseImage{{Ref: "alpine", Loc: loc(f, 1)}},
			AddURLs: []model.Str{
				str("https://example.com/tool.tgz", f, 2),
				str("https://ci:[REDACTED:url-password:"+secrets.Fingerprint("hunter2hunter2")+"]@example.com/x.tgz?token=[REDACTED:github-pat-classic:"+pat().Fingerprint+"]&v=2", f, 3),
				str("HTTP://EXAMPLE.COM/a", f, 5),
			},
			// The local archive is a build-context file, kept so a command
			// running it can be traced back to the repository.
			Copies: []model.Copy{{Sources: []string{"./local.tgz"}, Dest: "/opt/", Loc: loc(f, 4)}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collect(t, f, []byte(tt.src))
			if diff := cmp.Diff([]model.Image{tt.want}, doc.Images); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			checkConsistent(t, f, []byte(tt.src), doc)
		})
	}
}

func TestCollectCredentials(t *testing.T) {
	src := "FROM alpine\nRUN curl -H 'token " + fakePAT + "' https://x\nADD https://u:pw-Zk39xQ@h/x /x\n"
	doc := collect(t, "Dockerfile", []byte(src))
	want := []model.Credential{
		{SecretRef: *pat(), Where: "arg", Context: "Dockerfile RUN", ReadableByAgent: true, Loc: loc("Dockerfile", 2)},
		{SecretRef: model.SecretRef{Kind: "url-password", Lifetime: "unknown", Fingerprint: secrets.Fingerprint("pw-Zk39xQ")}, Where: "url", Context: "Dockerfile ADD URL password", ReadableByAgent: true, Loc: loc("Dockerfile", 3)},
	}
	if diff := cmp.Diff(want, doc.Credentials); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if strings.Contains(docText(doc), "pw-Zk39xQ") || strings.Contains(docText(doc), fakePAT) {
		t.Error("a secret value reached the model")
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"binary junk", "FROM a\n\x00\x01\x02\xff\xfe", 2, "binary data"},
		{"unknown instruction", "FROM a\nRUN ok\nFORM b\n", 3, "line 3: unknown instruction"},
		{"empty", "", 1, "no instructions"},
		{"only comments", "# nothing\n", 1, "no instructions"},
		{"no FROM", "ARG X=1\n", 1, "no FROM"},
		{"instruction before FROM", "RUN x\nFROM a\n", 1, "RUN before the first FROM"},
		{"unterminated heredoc", "FROM a\nRUN <<EOF\nx\n", 2, "unterminated heredoc"},
		{"ENV without value", "FROM a\nENV X\n", 2, "ENV must have two arguments"},
		{"FROM without image", "FROM\n", 1, "FROM requires an image"},
		{"yaml named Dockerfile", "services:\n  app:\n    image: x\n", 1, "unknown instruction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{}
			start := time.Now()
			err := New().Collect(context.Background(), "Dockerfile", []byte(tt.src), doc)
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *collectors.ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Error(), tt.msg) {
				t.Errorf("err = line %d %q, want line %d containing %q", pe.Line, pe.Error(), tt.line, tt.msg)
			}
			if len(doc.Images) != 0 {
				t.Errorf("a malformed file added %d images", len(doc.Images))
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New().Collect(ctx, "Dockerfile", []byte("FROM a\n"), &model.Document{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
