package dockerfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestPrivileges(t *testing.T) {
	const f = "Dockerfile"
	src := `ARG USERNAME=dev
FROM debian:12
ARG USERNAME
ENV TOOLS=/opt/tools
RUN useradd -m "$USERNAME" && usermod -aG sudo,docker "$USERNAME" \
 && echo $USERNAME ALL=\(root\) NOPASSWD:ALL > /etc/sudoers.d/$USERNAME
RUN printf '%s ALL=(root) NOPASSWD:SETENV: /usr/local/bin/fw.sh\n' ci | tee /etc/sudoers.d/ci
RUN cat > /etc/sudoers.d/ops <<EOF
# comment
Defaults env_keep += "HOME"
%ops ALL=(ALL:ALL) NOPASSWD: /usr/sbin/iptables, /usr/sbin/ip6tables
EOF
RUN sed -i 's/^# %wheel ALL=(ALL) NOPASSWD: ALL/%wheel ALL=(ALL) NOPASSWD: ALL/' /etc/sudoers
RUN echo "reader ALL=(ALL) ALL" >> /etc/sudoers && gpasswd -a dev wheel
WORKDIR /app
COPY fw.sh /usr/local/bin/
COPY --from=builder /out /out
COPY a.sh b.sh ./scripts/
USER ${USERNAME}
ENTRYPOINT ["/usr/local/bin/entry.sh"]
`
	doc := collect(t, f, []byte(src))
	img := doc.Images[0]
	wantSudo := []model.SudoRule{
		{Who: "dev", RunAs: "(root)", NoPasswd: true, Commands: []string{"ALL"}, Via: "sudoers", Loc: loc(f, 5)},
		{Who: "ci", RunAs: "(root)", NoPasswd: true, SetEnv: true, Commands: []string{"/usr/local/bin/fw.sh"}, Via: "sudoers", Loc: loc(f, 7)},
		{Who: "%ops", RunAs: "(ALL:ALL)", NoPasswd: true, Commands: []string{"/usr/sbin/iptables", "/usr/sbin/ip6tables"}, Via: "sudoers", Loc: loc(f, 8)},
		{Who: "%wheel", RunAs: "(ALL)", NoPasswd: true, Commands: []string{"ALL"}, Via: "sudoers", Loc: loc(f, 13)},
		{Who: "reader", RunAs: "(ALL)", Commands: []string{"ALL"}, Via: "sudoers", Loc: loc(f, 14)},
	}
	if diff := cmp.Diff(wantSudo, img.Sudoers); diff != "" {
		t.Errorf("sudoers (-want +got):\n%s", diff)
	}
	// The grants for the image's user: its own line and the %wheel line
	// of a group the image adds it to.
	if diff := cmp.Diff([]model.SudoRule{wantSudo[0], wantSudo[3]}, img.Sudo); diff != "" {
		t.Errorf("sudo for the image's user (-want +got):\n%s", diff)
	}
	wantGroups := []model.UserGroup{
		{User: "dev", Group: "sudo", Loc: loc(f, 5)},
		{User: "dev", Group: "docker", Loc: loc(f, 5)},
		{User: "dev", Group: "wheel", Loc: loc(f, 14)},
	}
	if diff := cmp.Diff(wantGroups, img.Groups); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	wantCopies := []model.Copy{
		{Sources: []string{"fw.sh"}, Dest: "/usr/local/bin/", Workdir: "/app", Loc: loc(f, 16)},
		{Sources: []string{"a.sh", "b.sh"}, Dest: "./scripts/", Workdir: "/app", Loc: loc(f, 18)},
	}
	if diff := cmp.Diff(wantCopies, img.Copies); diff != "" {
		t.Errorf("copies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&model.Str{Value: "dev", Loc: loc(f, 19)}, img.RunUser); diff != "" {
		t.Errorf("run user (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&model.Str{Value: "${USERNAME}", Loc: loc(f, 19)}, img.FinalUser); diff != "" {
		t.Errorf("final user stays as written (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&model.Str{Value: "/usr/local/bin/entry.sh", Loc: loc(f, 20)}, img.Entrypoint); diff != "" {
		t.Errorf("entrypoint (-want +got):\n%s", diff)
	}
}

func TestGrants(t *testing.T) {
	img := &model.Image{
		BaseImages: []model.BaseImage{{Ref: "mcr.microsoft.com/devcontainers/typescript-node:22", Loc: loc("Dockerfile", 1)}},
		Sudoers: []model.SudoRule{
			{Who: "node", NoPasswd: true, Commands: []string{"/usr/local/bin/fw.sh"}, Via: "sudoers"},
			{Who: "%sudo", NoPasswd: true, Commands: []string{"ALL"}, Via: "sudoers"},
			{Who: "other", NoPasswd: true, Commands: []string{"ALL"}, Via: "sudoers"},
			{Who: "ALL", Commands: []string{"/usr/bin/id"}, Via: "sudoers"},
		},
		Groups: []model.UserGroup{{User: "node", Group: "sudo"}},
	}
	var got []string
	for _, r := range Grants(img, "node:node") {
		got = append(got, r.Who+" "+r.Via)
	}
	want := []string{"node sudoers", "%sudo sudoers", "ALL sudoers", "node image mcr.microsoft.com/devcontainers/typescript-node:22 (common-utils: passwordless sudo for its user)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("grants for node (-want +got):\n%s", diff)
	}
	if g := Grants(img, "root"); len(g) != 1 || g[0].Who != "ALL" {
		t.Errorf("grants for root = %+v, want only the ALL line", g)
	}
}

func TestBaseImageSudoRemoved(t *testing.T) {
	for src, want := range map[string]int{
		"FROM mcr.microsoft.com/devcontainers/base:ubuntu\nUSER vscode\n":                                  1,
		"FROM mcr.microsoft.com/devcontainers/base:ubuntu\nRUN rm -f /etc/sudoers.d/vscode\nUSER vscode\n": 0,
		"FROM mcr.microsoft.com/devcontainers/base:ubuntu\nRUN apt-get purge -y sudo\nUSER vscode\n":       0,
		"FROM mcr.microsoft.com/devcontainers/base:ubuntu\nRUN rm -f /etc/sudoers.d/other\nUSER vscode\n":  1,
		"FROM mcr.microsoft.com/devcontainers/javascript-node:22\nUSER vscode\n":                           0,
	} {
		doc := collect(t, "Dockerfile", []byte(src))
		if got := len(doc.Images[0].Sudo); got != want {
			t.Errorf("%q: %d grants, want %d: %+v", src, got, want, doc.Images[0].Sudo)
		}
	}
}
