package workflows

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// runtimeSockets are the sockets that hand whoever can write to them the
// container runtime of the runner.
var runtimeSockets = []string{"docker.sock", "containerd.sock", "podman.sock", "crio.sock", "buildkitd.sock"}

// hostDirs are host paths whose mount gives the container the runner host.
var hostDirs = map[string]bool{"/": true, "/etc": true, "/proc": true, "/sys": true, "/var/run": true, "/run": true, "/var/lib/docker": true, "/root": true, "/home": true}

// container reads the job's container: its image, and the options and
// volumes that take away its isolation from the runner. Services are read
// for one case: a privileged docker-in-docker daemon the job can reach.
func (c *collector) container(body *yaml.Node) *model.JobContainer {
	k, v := getKV(body, "container")
	var jc *model.JobContainer
	switch {
	case v == nil:
	case v.Kind == yaml.ScalarNode:
		jc = &model.JobContainer{Image: &model.Str{Value: v.Value, Loc: c.loc(v.Line)}, Loc: c.loc(k.Line)}
	case v.Kind == yaml.MappingNode:
		jc = &model.JobContainer{Loc: c.loc(k.Line)}
		if img := get(v, "image"); img != nil {
			jc.Image = &model.Str{Value: scalar(img), Loc: c.loc(img.Line)}
		}
		if opts := get(v, "options"); opts != nil {
			jc.Privileges = append(jc.Privileges, c.options(opts)...)
		}
		if vols := get(v, "volumes"); vols != nil && vols.Kind == yaml.SequenceNode {
			for _, e := range vols.Content {
				if p, ok := hostVolume(scalar(e)); ok {
					jc.Privileges = append(jc.Privileges, model.Str{Value: "volume " + p, Loc: c.loc(e.Line)})
				}
			}
		}
	}
	for _, kv := range pairs(get(body, "services")) {
		img := strings.ToLower(scalar(get(kv[1], "image")))
		if !strings.Contains(img, "dind") {
			continue
		}
		for _, p := range c.options(get(kv[1], "options")) {
			if p.Value == "--privileged" {
				if jc == nil {
					jc = &model.JobContainer{Loc: c.loc(kv[0].Line)}
				}
				jc.Privileges = append(jc.Privileges, model.Str{Value: "service " + kv[0].Value + ": privileged docker-in-docker", Loc: p.Loc})
			}
		}
	}
	return jc
}

// options reads the docker create options GitHub passes on (container.options).
func (c *collector) options(opts *yaml.Node) []model.Str {
	if opts == nil || opts.Kind != yaml.ScalarNode {
		return nil
	}
	words := shellWords(strings.ReplaceAll(opts.Value, "\n", " "))
	var out []model.Str
	for i := 0; i < len(words); i++ {
		flag, value, hasValue := strings.Cut(words[i], "=")
		if !hasValue && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			switch flag {
			case "--cap-add", "--pid", "--ipc", "--network", "--net", "--security-opt", "--userns", "-v", "--volume", "--uts":
				i++
				value = words[i]
			}
		}
		loc := argLoc(c, opts, flag, c.loc(opts.Line))
		add := func(text string) { out = append(out, model.Str{Value: text, Loc: loc}) }
		value = strings.TrimSpace(value)
		switch flag {
		case "--privileged":
			if !hasValue || value == "true" {
				add("--privileged")
			}
		case "--cap-add":
			add("--cap-add " + strings.TrimPrefix(strings.ToUpper(value), "CAP_"))
		case "--pid", "--ipc", "--network", "--net", "--userns", "--uts":
			if value == "host" {
				if flag == "--net" {
					flag = "--network"
				}
				add(flag + " host")
			}
		case "--security-opt":
			o := strings.ReplaceAll(strings.ToLower(value), ":", "=")
			if strings.HasSuffix(o, "=unconfined") || o == "label=disable" {
				add("--security-opt " + value)
			}
		case "-v", "--volume":
			if p, ok := hostVolume(value); ok {
				add("volume " + p)
			}
		}
	}
	return out
}

// hostVolume reports a volume of a runtime socket or a host system
// directory, with its host path.
func hostVolume(spec string) (string, bool) {
	src, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if !strings.HasPrefix(src, "/") {
		return "", false
	}
	for _, s := range runtimeSockets {
		if strings.HasSuffix(src, s) {
			return src, true
		}
	}
	clean := path.Clean(src)
	return clean, hostDirs[clean]
}

// stateActions restore files from an earlier run: a cache, or an artifact
// of another run.
func (c *collector) stateRestore(name string, uses, with *yaml.Node) (model.Str, bool) {
	var paths *yaml.Node
	switch {
	case name == "actions/cache", name == "actions/cache/restore":
		paths = get(with, "path")
	case name == "actions/download-artifact":
		// Without run-id it downloads an artifact of this very run.
		if get(with, "run-id") == nil {
			return model.Str{}, false
		}
		paths = get(with, "path")
	case name == "dawidd6/action-download-artifact":
		paths = get(with, "path")
	default:
		return model.Str{}, false
	}
	if paths == nil {
		return model.Str{}, false
	}
	for i, p := range strings.Split(scalar(paths), "\n") {
		if agentStatePath(p) {
			return model.Str{Value: uses.Value + " restores " + strings.TrimSpace(p), Loc: c.loc(lineOf(paths, i))}, true
		}
	}
	return model.Str{}, false
}

// agentStatePath reports a path that holds an agent's state: its session
// history, memory, settings or login (~/.claude, ~/.codex, ~/.gemini,
// .aider*, ~/.copilot, opencode's data directory…).
func agentStatePath(p string) bool {
	p = strings.Trim(strings.TrimSpace(p), `"'`)
	if p == "" || strings.HasPrefix(p, "!") || strings.HasPrefix(p, "#") {
		return false
	}
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	for i, part := range parts {
		switch {
		case part == ".claude", part == ".claude.json", part == ".codex", part == ".gemini", part == ".copilot",
			part == ".cursor", part == ".qwen", part == ".openhands", part == ".opencode",
			strings.HasPrefix(part, ".aider"):
			return true
		case (part == "opencode" || part == "goose") && i > 0 && (parts[i-1] == "share" || parts[i-1] == ".config"):
			return true
		}
	}
	return false
}
