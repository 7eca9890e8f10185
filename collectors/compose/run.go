package compose

import (
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// command keeps a service's command or entrypoint (redacted), with the
// scripts it runs by their absolute paths in the image: a relative path
// depends on the image's working directory.
func (s *service) command(key string, n *yaml.Node) {
	var parts []string
	if its := items(n); its != nil {
		for _, it := range its {
			if t, ok := scalar(it); ok {
				parts = append(parts, t)
			}
		}
	} else if t, ok := scalar(resolve(n)); ok {
		parts = []string{t}
	}
	if len(parts) == 0 {
		return
	}
	text := strings.Join(parts, " ")
	if items(n) != nil && len(parts) > 2 && shell.IsShell(path.Base(parts[0])) && parts[1] == "-c" {
		text = parts[2] // ["sh", "-c", "script"]: the script is one word
	}
	scripts, sudo := shell.ContainerScripts(text)
	s.w.Commands = append(s.w.Commands, model.Command{
		Phase: key, Text: secrets.Redact(strings.Join(parts, " ")), Scripts: scripts, SudoScripts: sudo, Loc: s.loc(n),
	})
}

// build records the Dockerfile and context a service builds: "build: dir"
// or "build: {context, dockerfile}", relative to the compose file.
func (s *service) build(n *yaml.Node, key *yaml.Node) {
	dir := path.Dir(s.file)
	ctx, dockerfile := ".", "Dockerfile"
	if v, ok := scalar(resolve(n)); ok {
		ctx = v
	} else {
		es := mapping(n)
		if v, ok := scalar(get(es, "context")); ok && v != "" {
			ctx = v
		}
		if v, ok := scalar(get(es, "dockerfile")); ok && v != "" {
			dockerfile = v
		}
		if _, inline := scalar(get(es, "dockerfile_inline")); inline {
			return
		}
	}
	if strings.Contains(ctx, "://") || strings.HasPrefix(ctx, "git@") {
		return // a remote context: no file of this repository
	}
	c := path.Join(dir, ctx)
	s.w.Build = &model.Build{Dockerfile: path.Join(c, dockerfile), Context: c, Loc: s.loc(key)}
}

// workspaceRel places a relative bind source in the repository the
// compose file belongs to: the parent of .devcontainer/ for a
// devcontainer's compose file, else the scanned root. "" when the source
// is not a relative path.
func workspaceRel(file, src string) string {
	if src != "." && src != ".." && !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		return ""
	}
	root := "."
	for d := path.Dir(file); d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == ".devcontainer" {
			root = path.Dir(d)
			break
		}
	}
	target := path.Join(path.Dir(file), src)
	rel, err := filepath.Rel(filepath.FromSlash(root), filepath.FromSlash(target))
	if err != nil {
		return target
	}
	return filepath.ToSlash(rel)
}
