package devcontainer

import "testing"

func TestHostSecretWrite(t *testing.T) {
	for cmd, want := range map[string]string{
		`echo "GH_TOKEN=$(gh auth token)" > .devcontainer/.env`:                     "gh auth token into .devcontainer/.env",
		`gh auth token > ${localWorkspaceFolder}/.devcontainer/token`:               "gh auth token into .devcontainer/token",
		`printf 'NPM_TOKEN=%s\n' "$NPM_TOKEN" >> .env`:                              "$NPM_TOKEN into .env",
		`cp ~/.aws/credentials .devcontainer/aws-credentials`:                       "~/.aws/credentials into .devcontainer/aws-credentials",
		`aws configure export-credentials --format env | tee .devcontainer/aws.env`: "aws configure export-credentials into .devcontainer/aws.env",
		`gh auth token >/dev/null && echo ok`:                                       "",
		`gh auth status`:                                                            "",
		`mkdir -p ~/.cache && cp ~/.aws/credentials ~/.cache/`:                      "",
		`echo "$GITHUB_TOKEN" | docker login ghcr.io --password-stdin`:              "",
		`echo "USER=$USER" > .devcontainer/.env`:                                    "",
		`bash .devcontainer/init.sh > .devcontainer/init.log 2>&1`:                  "",
		`touch .devcontainer/.env`:                                                  "",
		`gh auth token > /tmp/token`:                                                "",
	} {
		if got := hostSecretWrite(cmd); got != want {
			t.Errorf("%s:\n got %q\nwant %q", cmd, got, want)
		}
	}
}
