// Package mcpcmd reads how an MCP server is launched (npx pkg@1.2.3, uvx,
// docker run image@sha256:…) and cleans its args and URL of literal secrets.
// The codex and gemini collectors share it; it has no Codex-specific code and
// can move to collectors/internal unchanged.
package mcpcmd

import (
	"path"
	"regexp"
	"strings"
)

// Launch is what a server's command line says about the code it runs.
type Launch struct {
	Launcher string // npx | bunx | pnpm | yarn | uvx | pipx | docker | podman | "" (direct binary)
	Package  string
	Version  string // "" when none; "latest" when @latest
	Pinned   bool   // exact version (npm, PyPI) or image digest
}

// ParseLaunch reads command and args. A direct binary has no launcher and is
// not pinned: nothing was downloaded, so there is nothing to pin.
func ParseLaunch(command string, args []string) Launch {
	base := strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/")))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".cmd")
	if base == "cmd" && len(args) >= 2 && strings.EqualFold(args[0], "/c") {
		return ParseLaunch(args[1], args[2:])
	}
	switch {
	case base == "npx" || base == "bunx":
		return npm(base, args)
	case (base == "pnpm" || base == "yarn") && len(args) > 0 && args[0] == "dlx":
		return npm(base, args[1:])
	case base == "npm" && len(args) > 0 && (args[0] == "exec" || args[0] == "x"):
		return npm("npx", args[1:])
	case base == "uvx":
		return python("uvx", args, "--from")
	case base == "uv" && len(args) > 1 && args[0] == "tool" && args[1] == "run":
		return python("uvx", args[2:], "--from")
	case base == "pipx" && len(args) > 0 && args[0] == "run":
		return python("pipx", args[1:], "--spec")
	case (base == "docker" || base == "podman") && len(args) > 0 && args[0] == "run":
		return image(base, args[1:])
	}
	return Launch{}
}

// npmValueFlags take a value in the next argument.
var npmValueFlags = map[string]bool{"-p": true, "--package": true, "-c": true, "--call": true, "--registry": true, "--cache": true}

func npm(launcher string, args []string) Launch {
	l := Launch{Launcher: launcher}
	spec := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			continue
		case a == "-p" || a == "--package":
			if i+1 < len(args) {
				spec = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--package="):
			spec = strings.TrimPrefix(a, "--package=")
		case npmValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if spec == "" {
				spec = a
			}
			i = len(args)
		}
	}
	l.Package, l.Version = splitNPM(spec)
	l.Pinned = exactVersion.MatchString(l.Version)
	return l
}

// splitNPM splits name@version, keeping the @ of a scope.
func splitNPM(spec string) (string, string) {
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return spec, ""
	}
	return spec[:at], spec[at+1:]
}

var (
	exactVersion = regexp.MustCompile(`^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?$`)
	pyVersion    = regexp.MustCompile(`^\d+(\.\d+)*$`)
)

// pyValueFlags take a value; flagPkg names the one that holds the package.
var pyValueFlags = map[string]bool{"--with": true, "--python": true, "-p": true, "--index-url": true, "--index": true, "--pip-args": true, "--spec": true, "--from": true}

func python(launcher string, args []string, flagPkg string) Launch {
	spec := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == flagPkg:
			if i+1 < len(args) {
				spec = args[i+1]
			}
			i++
		case strings.HasPrefix(a, flagPkg+"="):
			spec = strings.TrimPrefix(a, flagPkg+"=")
		case pyValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if spec == "" {
				spec = a
			}
			i = len(args)
		}
	}
	l := Launch{Launcher: launcher}
	switch {
	case strings.Contains(spec, "=="):
		l.Package, l.Version, _ = strings.Cut(spec, "==")
		l.Pinned = l.Version != "" && !strings.ContainsAny(l.Version, "*,")
	case strings.Contains(spec, "@"):
		l.Package, l.Version, _ = strings.Cut(spec, "@")
		l.Pinned = exactVersion.MatchString(l.Version) || pyVersion.MatchString(l.Version)
	default:
		// pkg>=1, pkg~=1, pkg[extra], pkg: ranges or nothing at all.
		l.Package = spec
		if i := strings.IndexAny(spec, "<>=!~[; "); i >= 0 {
			l.Package = spec[:i]
		}
	}
	return l
}

// dockerValueFlags take a value in the next argument.
var dockerValueFlags = map[string]bool{
	"-e": true, "--env": true, "-v": true, "--volume": true, "--name": true, "--network": true, "--net": true,
	"--mount": true, "-p": true, "--publish": true, "--env-file": true, "-u": true, "--user": true, "-w": true,
	"--workdir": true, "--entrypoint": true, "--platform": true, "--pull": true, "-l": true, "--label": true,
	"--cap-add": true, "--cap-drop": true, "--security-opt": true, "--add-host": true, "-h": true, "--hostname": true,
	"--runtime": true, "--memory": true, "-m": true, "--cpus": true, "--tmpfs": true, "--device": true,
}

func image(launcher string, args []string) Launch {
	l := Launch{Launcher: launcher}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if dockerValueFlags[a] {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		ref := a
		if name, digest, ok := strings.Cut(ref, "@"); ok {
			l.Package, l.Version, l.Pinned = name, digest, strings.HasPrefix(digest, "sha256:")
			return l
		}
		// A colon after the last slash is a tag; before it, a registry port.
		if c := strings.LastIndex(ref, ":"); c > strings.LastIndex(ref, "/") {
			l.Package, l.Version = ref[:c], ref[c+1:]
		} else {
			l.Package = ref
		}
		return l
	}
	return l
}
