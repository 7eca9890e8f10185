package mcp

import (
	"path"
	"regexp"
	"strings"
	"unicode"
)

// launch is what a server's command line says about the code it runs.
type launch struct {
	launcher, pkg, version string
	pinned                 bool
}

// parseLaunch reads command and args. A package launcher (npx, uvx, docker
// run…) fetches code by name at start: it is pinned only by an exact
// version or an image digest. A direct binary or a local path runs what is
// already on disk: nothing to pin, so it counts as pinned. A blank command
// launches nothing: no launcher, nothing pinned.
func parseLaunch(command string, args []string) launch {
	l := readLaunch(command, args)
	// "pkg @1.0" names "pkg", not "pkg " (found by FuzzParseLaunch).
	l.pkg = strings.TrimSpace(l.pkg)
	return l
}

func readLaunch(command string, args []string) launch {
	command = strings.TrimSpace(command)
	if command == "" {
		return launch{}
	}
	if len(args) == 0 && strings.IndexFunc(command, unicode.IsSpace) >= 0 {
		// "command": "npx -y pkg" — some clients accept a whole line.
		f := strings.Fields(command)
		command, args = f[0], f[1:]
	}
	base := strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, ext)
	}
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch {
	case base == "cmd" && strings.EqualFold(arg(0), "/c") && strings.TrimSpace(arg(1)) != "":
		return readLaunch(args[1], args[2:])
	case base == "npx" || base == "bunx":
		return npm(base, args)
	case base == "pnpx":
		return npm("pnpm", args)
	case (base == "pnpm" || base == "yarn") && arg(0) == "dlx":
		return npm(base, args[1:])
	case (base == "npm" && (arg(0) == "exec" || arg(0) == "x")) || (base == "bun" && arg(0) == "x"):
		return npm(map[string]string{"npm": "npx", "bun": "bunx"}[base], args[1:])
	case base == "uvx":
		return python("uvx", args, "--from")
	case base == "uv" && arg(0) == "tool" && arg(1) == "run":
		return python("uvx", args[2:], "--from")
	case base == "pipx" && arg(0) == "run":
		return python("pipx", args[1:], "--spec")
	case (base == "docker" || base == "podman") && arg(0) == "run":
		return image(base, args[1:])
	case (base == "docker" || base == "podman") && arg(0) == "container" && arg(1) == "run":
		return image(base, args[2:])
	}
	return launch{pinned: true}
}

// positional returns the first argument that is not a flag or a flag's
// value, and the value of the first of pkgFlags met (--from, --package…).
func positional(args []string, valueFlags map[string]bool, pkgFlags ...string) (first, fromFlag string) {
	isPkg := func(a string) (string, bool, bool) { // value, inline, matched
		for _, f := range pkgFlags {
			if a == f {
				return "", false, true
			}
			if v, ok := strings.CutPrefix(a, f+"="); ok {
				return v, true, true
			}
		}
		return "", false, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v, inline, matched := isPkg(a)
		switch {
		case a == "--":
			return arg(args, i+1), fromFlag
		case matched:
			if !inline {
				v = arg(args, i+1)
				i++
			}
			if fromFlag == "" {
				fromFlag = v
			}
		case valueFlags[a]:
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return a, fromFlag
		}
	}
	return "", fromFlag
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

var (
	exactSemver = regexp.MustCompile(`^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	commitRef   = regexp.MustCompile(`[#@]([0-9a-f]{40})$`)
	npmFlags    = map[string]bool{"-c": true, "--call": true, "--registry": true, "--cache": true, "--userconfig": true, "-w": true, "--workspace": true, "--prefix": true, "--node-options": true}
)

// npm reads `npx [flags] spec [args]`; -p/--package names the package when
// the positional is only the binary to run.
func npm(launcher string, args []string) launch {
	first, pkg := positional(args, npmFlags, "--package", "-p")
	if pkg == "" {
		pkg = first
	}
	pkg = strings.TrimSpace(pkg)
	l := launch{launcher: launcher}
	switch {
	case isLocal(pkg):
		l.pkg, l.pinned = pkg, true
	case strings.Contains(pkg, ":") || (strings.Contains(pkg, "/") && !strings.HasPrefix(pkg, "@")):
		// git, tarball URL or GitHub shorthand: pinned only by a commit.
		l.pkg = pkg
		if m := commitRef.FindStringSubmatch(pkg); m != nil {
			l.pkg, l.version, l.pinned = pkg[:len(pkg)-41], m[1], true
		}
	default:
		if at := strings.LastIndex(pkg, "@"); at > 0 {
			l.pkg, l.version = pkg[:at], pkg[at+1:]
		} else {
			l.pkg = pkg
		}
		l.pinned = exactSemver.MatchString(l.version)
	}
	return l
}

var pyFlags = map[string]bool{
	"--with": true, "--with-requirements": true, "--with-editable": true, "--python": true, "-p": true,
	"--index-url": true, "-i": true, "--extra-index-url": true, "--index": true, "--default-index": true,
	"--pip-args": true, "--spec": true, "--from": true,
}

var pyExact = regexp.MustCompile(`^\d+(\.\d+)*([a-z0-9.+-]*)$`)

// python reads `uvx [--from spec] name` and `pipx run [--spec spec] name`.
func python(launcher string, args []string, pkgFlag string) launch {
	first, spec := positional(args, pyFlags, pkgFlag)
	if spec == "" {
		spec = first
	}
	l := launch{launcher: launcher}
	switch {
	case isLocal(spec):
		l.pkg, l.pinned = spec, true
	case strings.Contains(spec, "://"):
		l.pkg = spec
		if m := commitRef.FindStringSubmatch(spec); m != nil {
			l.pkg, l.version, l.pinned = spec[:len(spec)-41], m[1], true
		}
	case strings.Contains(spec, "==="), strings.Contains(spec, "=="):
		name, ver, _ := strings.Cut(spec, "==")
		ver = strings.TrimPrefix(ver, "=")
		l.pkg, l.version = name, ver
		l.pinned = pyExact.MatchString(ver)
	case strings.Contains(spec, "@"):
		l.pkg, l.version, _ = strings.Cut(spec, "@")
		l.pinned = pyExact.MatchString(l.version)
	default:
		// pkg, pkg>=1, pkg~=1.2: no exact version.
		l.pkg = spec
		if i := strings.IndexAny(spec, "<>=!~;"); i >= 0 {
			l.pkg, l.version = spec[:i], spec[i:]
		}
	}
	if i := strings.Index(l.pkg, "["); i > 0 {
		l.pkg = l.pkg[:i] // extras: pkg[cli]==1.0
	}
	l.pkg = strings.TrimSpace(l.pkg)
	return l
}

// dockerFlags take a value in the next argument.
var dockerFlags = map[string]bool{
	"-e": true, "--env": true, "--env-file": true, "-v": true, "--volume": true, "--mount": true,
	"--name": true, "--network": true, "--net": true, "-p": true, "--publish": true, "-u": true, "--user": true,
	"-w": true, "--workdir": true, "--entrypoint": true, "--platform": true, "--pull": true, "-l": true,
	"--label": true, "--cap-add": true, "--cap-drop": true, "--security-opt": true, "--add-host": true,
	"-h": true, "--hostname": true, "--runtime": true, "-m": true, "--memory": true, "--cpus": true,
	"--tmpfs": true, "--device": true, "--ipc": true, "--pid": true, "--userns": true, "--gpus": true,
	"--log-driver": true, "--log-opt": true, "--dns": true, "--restart": true, "--ulimit": true,
	"--group-add": true, "--cidfile": true, "--stop-signal": true, "--stop-timeout": true, "-a": true, "--attach": true,
}

// image reads `docker run [flags] image [cmd]`: an image is pinned by digest,
// or by a full release tag (v0.27.0, 1.4.2): a tag can be moved, but a
// release tag names one build as a package version does, and the image
// rules leave tags alone by default. A partial (1, 1.0) or moving tag
// (latest, main) is not a pin.
func image(launcher string, args []string) launch {
	ref, _ := positional(args, dockerFlags)
	l := launch{launcher: launcher}
	if name, digest, ok := strings.Cut(ref, "@"); ok {
		l.pkg, l.version = name, digest
		l.pinned = strings.HasPrefix(digest, "sha256:") && len(digest) == len("sha256:")+64
		if c := strings.LastIndex(name, ":"); c > strings.LastIndex(name, "/") {
			l.pkg = name[:c] // image:tag@sha256:…
		}
		return l
	}
	// A colon after the last slash is a tag; before it, a registry port.
	if c := strings.LastIndex(ref, ":"); c > strings.LastIndex(ref, "/") {
		l.pkg, l.version = ref[:c], ref[c+1:]
		l.pinned = exactSemver.MatchString(l.version)
	} else {
		l.pkg = ref
	}
	return l
}

// isLocal reports a path on disk rather than a registry name.
func isLocal(s string) bool {
	return strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") ||
		strings.HasPrefix(s, "file:") || (len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/'))
}

// Launch is what a server's command line says about the code it runs, for
// the other collectors that read MCP servers (Codex, Gemini): one parser,
// one meaning of "pinned" across every config format.
type Launch struct {
	Launcher string // npx | bunx | pnpm | yarn | uvx | pipx | docker | podman | "" (direct binary)
	Package  string
	Version  string // "" when none; "latest" when @latest
	Pinned   bool
}

// ParseLaunch reads command and args (see parseLaunch).
func ParseLaunch(command string, args []string) Launch {
	l := parseLaunch(command, args)
	return Launch{Launcher: l.launcher, Package: l.pkg, Version: l.version, Pinned: l.pinned}
}
