// Package roles decides whose workload each container is: the agent's
// (the agent or the untrusted code it writes runs there), the platform's
// (databases, caches, registries, proxies, observability, UIs, control
// planes) or unknown. Sandbox rules judge the agent's workloads, and
// unknown ones only when no workload of the same repository is known to be
// the agent's: a Postgres service beside the agent is not the sandbox.
//
// The decision, first match wins:
//  1. the policy file's sandboxes: section (the user's word);
//  2. what the format says (a collector's Role: the devcontainer itself, an
//     agent-sandbox CRD), a sandbox-audit/role label or annotation, the
//     compose service a devcontainer runs in, another container of an
//     agent's pod; a compose service only a build profile starts (a build
//     definition, the platform's);
//  3. an image or command that runs an agent CLI or a sandbox runner;
//  4. a service account that may create pods (unless its name says agent), a
//     well-known platform image, a DaemonSet, kube-system, a container a
//     script starts that nothing marks (unless the script's name says agent
//     or sandbox);
//  5. otherwise unknown.
package roles

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// The roles.
const (
	Agent    = "agent"
	Platform = "platform"
	Unknown  = "unknown"
)

// LabelKey is the label (compose, Kubernetes) or annotation (Kubernetes)
// that states a workload's role: agent or platform.
const LabelKey = "sandbox-audit/role"

// Selector is one entry of the policy file's sandboxes: section. Every
// field given must match; an empty selector matches nothing.
type Selector struct {
	// File is a doublestar glob on the workload's file, relative to the
	// scanned root (deploy/**/*.yaml).
	File string `yaml:"file"`
	// Name is a glob on the workload's name: the compose service, the
	// devcontainer's name, the Kubernetes object or container name (or
	// object/container).
	Name string `yaml:"name"`
	// Image is a glob on the image reference.
	Image string `yaml:"image"`
	// Labels must all be present with these values.
	Labels map[string]string `yaml:"labels"`
	// Role is agent (default) or platform.
	Role string `yaml:"role"`
	// Line is where the entry starts in the policy file.
	Line int `yaml:"-"`
}

// Validate reports a selector that could never match or names no role.
func (s Selector) Validate() error {
	if s.File == "" && s.Name == "" && s.Image == "" && len(s.Labels) == 0 {
		return fmt.Errorf("give at least one of file, name, image, labels")
	}
	if s.Role != "" && s.Role != Agent && s.Role != Platform {
		return fmt.Errorf("role %q must be agent or platform", s.Role)
	}
	for _, g := range []string{s.File, s.Name, s.Image} {
		if g != "" && !doublestar.ValidatePattern(g) {
			return fmt.Errorf("%q is not a valid glob", g)
		}
	}
	return nil
}

func (s Selector) role() string {
	if s.Role == "" {
		return Agent
	}
	return s.Role
}

func (s Selector) matches(w *model.Workload) bool {
	if s.File == "" && s.Name == "" && s.Image == "" && len(s.Labels) == 0 {
		return false
	}
	if s.File != "" {
		if ok, _ := doublestar.Match(s.File, w.File); !ok {
			return false
		}
	}
	if s.Name != "" && !anyMatch(s.Name, names(w)) {
		return false
	}
	if s.Image != "" {
		if w.Image == nil {
			return false
		}
		if ok, _ := doublestar.Match(s.Image, w.Image.Value); !ok {
			return false
		}
	}
	for k, v := range s.Labels {
		got, ok := w.Labels[k]
		if !ok {
			got, ok = w.Annotations[k]
		}
		if !ok || got != v {
			return false
		}
	}
	return true
}

func anyMatch(glob string, names []string) bool {
	for _, n := range names {
		if ok, _ := path.Match(glob, n); ok {
			return true
		}
	}
	return false
}

// names are the names a user may select a workload by.
func names(w *model.Workload) []string {
	out := []string{w.Name}
	if w.Source == "kubernetes" {
		if obj, ctr, ok := strings.Cut(w.Name, "/"); ok {
			out = append(out, obj, ctr)
		}
	}
	return out
}

// Assign sets Role, RoleReason and Judged on every workload of doc. policy
// names the policy file for reasons ("" when none).
func Assign(doc *model.Document, sel []Selector, policy string) {
	agentSel := false
	for _, s := range sel {
		if s.role() == Agent {
			agentSel = true
		}
	}
	ws := doc.Workloads
	// fixed marks the workloads whose role the user or the format gave:
	// no inference below changes them.
	// chosen marks those the policy file chose.
	fixed, chosen := make([]bool, len(ws)), make([]bool, len(ws))
	for i := range ws {
		w := &ws[i]
		if role, why, ok := bySelector(w, sel, policy); ok {
			w.Role, w.RoleReason, fixed[i], chosen[i] = role, why, true, true
			continue
		}
		if agentSel {
			w.Role, w.RoleReason, fixed[i], chosen[i] = Platform, "not one of the sandboxes the policy file names", true, true
			continue
		}
		if w.Role == Agent || w.Role == Platform {
			fixed[i] = true // the format said so
			continue
		}
		w.Role, w.RoleReason = decide(w)
	}
	linkDevcontainers(ws, fixed)
	samePod(ws, fixed)
	sameImage(ws, fixed)
	initContainers(ws, chosen)
	judge(doc)
	reachable(ws)
	vmHosts(ws)
}

// vmHosts marks the runners that start virtual machines for the code they
// run: /dev/kvm given (as a device or a hostPath) to a compose service or
// pod that is not where the agent itself works (no devcontainer runs in
// it, no agent CLI runs in it). An emulator in a devcontainer uses KVM
// too, but there the agent works in the container.
func vmHosts(ws []model.Workload) {
	for i := range ws {
		w := &ws[i]
		if tool, _ := agentCommand(w); w.Source != "compose" && w.Source != "kubernetes" || w.Devcontainer != "" || tool != "" {
			continue
		}
		for _, d := range w.Devices {
			if d.Value == "/dev/kvm" {
				w.VMHost = &model.Str{Value: "device /dev/kvm", Loc: d.Loc}
			}
		}
		for _, m := range w.Mounts {
			if w.VMHost == nil && m.Type == "hostPath" && m.Source == "/dev/kvm" {
				w.VMHost = &model.Str{Value: "hostPath /dev/kvm", Loc: m.Loc}
			}
		}
	}
}

// agentCommand is the agent CLI the first of the workload's own commands
// (not one run on the host) starts, with that command's phase; "" when
// none does.
func agentCommand(w *model.Workload) (tool, phase string) {
	for _, c := range w.Commands {
		if c.OnHost {
			continue
		}
		if tool := agentcli.Runs(c.Text); tool != "" {
			return tool, c.Phase
		}
	}
	return "", ""
}

// reachable marks the container APIs the agent reaches over the network: a
// Docker-in-Docker daemon or socket proxy on a compose network it shares
// with a judged service runs whatever containers the agent asks for.
func reachable(ws []model.Workload) {
	type key struct{ file, network string }
	agents := map[key]string{}
	for _, w := range ws {
		if w.Judged && w.Source == "compose" {
			for _, n := range w.Networks {
				if _, ok := agents[key{w.File, n}]; !ok {
					agents[key{w.File, n}] = w.Name
				}
			}
		}
	}
	for i := range ws {
		w := &ws[i]
		if w.Judged || w.Source != "compose" || w.Image == nil || !runtimeAPI(w.Image.Value) {
			continue
		}
		for _, n := range w.Networks {
			if a, ok := agents[key{w.File, n}]; ok {
				w.ReachableBy = a
				w.RoleReason = fmt.Sprintf("it serves a container API that the agent's service %s reaches on network %s", a, n)
				break
			}
		}
	}
}

func bySelector(w *model.Workload, sel []Selector, policy string) (string, string, bool) {
	for i, s := range sel {
		if s.matches(w) {
			at := fmt.Sprintf("sandboxes[%d]", i)
			if policy != "" {
				at = fmt.Sprintf("%s %s", policy, at)
				if s.Line > 0 {
					at = fmt.Sprintf("%s:%d sandboxes[%d]", policy, s.Line, i)
				}
			}
			return s.role(), "selected by the policy file (" + at + ")", true
		}
	}
	return "", "", false
}

// decide applies the markers a single workload carries.
func decide(w *model.Workload) (string, string) {
	for _, m := range []map[string]string{w.Labels, w.Annotations} {
		switch v := strings.ToLower(strings.TrimSpace(m[LabelKey])); v {
		case Agent, Platform:
			return v, fmt.Sprintf("labelled %s=%s", LabelKey, v)
		}
	}
	if w.Source == "devcontainer" {
		return Agent, "the devcontainer the agent works in"
	}
	if why := buildOnly(w); why != "" {
		return Platform, why
	}
	if tool, phase := agentCommand(w); tool != "" {
		return Agent, fmt.Sprintf("it runs the %s agent (%s)", tool, phase)
	}
	for _, e := range w.Env {
		if launchesSandboxes(e.Name) {
			return Platform, fmt.Sprintf("it starts the agent's sandboxes (%s): a control plane", e.Name)
		}
	}
	// What the name says is weighed three times below: over an image that
	// only says sandbox, against a pod manager's rights, and on its own.
	nameRole, nameWhy := byName(w)
	if w.Image != nil {
		if why := agentImage(w.Image.Value); why != "" {
			if nameRole == Platform && weakAgentImage(why) {
				return nameRole, nameWhy
			}
			// OpenHands' own server starts the runtimes the agent's
			// actions run in: an image that only says OpenHands, whose
			// service account may create pods, is that server.
			if pods := managesPods(w); pods != "" && nameRole != Agent && strings.HasSuffix(why, " runs OpenHands") {
				return Platform, pods
			}
			return Agent, why
		}
	}
	if nameRole != Agent {
		if why := managesPods(w); why != "" {
			return Platform, why
		}
	}
	if w.Image != nil {
		if why := platformImage(w.Image.Value); why != "" {
			return Platform, why
		}
	}
	if nameRole != "" {
		return nameRole, nameWhy
	}
	if w.Source == "script" && !agentcli.NamesAgent(path.Base(w.File)) {
		return Platform, "a container a script starts that nothing marks as the agent's (no agent CLI, image or name): a tool the script runs"
	}
	if w.Source == "kubernetes" {
		if kind := k8sKind(w); kind == "DaemonSet" {
			return Platform, "a DaemonSet runs node infrastructure, one pod per node"
		}
		if w.Namespace == "kube-system" {
			return Platform, "it runs in kube-system"
		}
	}
	return Unknown, ""
}

// buildProfiles are the compose profiles that say a service only builds
// an image.
var buildProfiles = words2set("build", "builder", "builds", "build-only", "image", "images", "prebuild")

// buildOnly says why a compose service only builds an image, "" when it
// may run: every profile it has says build (profiles: [build]), so compose
// starts it only when that profile is asked for, and the image it builds
// runs as the sandbox wherever that is started, not here.
func buildOnly(w *model.Workload) string {
	if w.Source != "compose" || len(w.Profiles) == 0 {
		return ""
	}
	for _, p := range w.Profiles {
		if !buildProfiles[strings.ToLower(strings.TrimSpace(p.Value))] {
			return ""
		}
	}
	return fmt.Sprintf("only the profile %s starts it: a build definition (compose builds its image, the sandbox runs from it elsewhere)", w.Profiles[0].Value)
}

// k8sKind reads the object kind from a Kubernetes workload's id
// (k8s:Kind/namespace/name/container).
func k8sKind(w *model.Workload) string {
	id := strings.TrimPrefix(w.ID, "k8s:")
	kind, _, _ := strings.Cut(id, "/")
	return kind
}

// podKey is a Kubernetes workload's object (k8s:Kind/namespace/name).
func podKey(w *model.Workload) string {
	if w.Source != "kubernetes" {
		return ""
	}
	i := strings.LastIndexByte(w.ID, '/')
	if i < 0 {
		return ""
	}
	return w.File + "\x00" + w.ID[:i]
}

// agentPods maps each Kubernetes pod with an agent's container to the
// first such container's name, init containers left out when asked.
func agentPods(ws []model.Workload, skipInit bool) map[string]string {
	out := map[string]string{}
	for _, w := range ws {
		if k := podKey(&w); k != "" && w.Role == Agent && !(skipInit && w.ContainerType == "init") {
			if _, ok := out[k]; !ok {
				out[k] = w.Name
			}
		}
	}
	return out
}

// samePod makes every container of an agent's pod the agent's: they share
// its network namespace and often its volumes, so their privileges and
// mounts are within the agent's reach.
func samePod(ws []model.Workload, fixed []bool) {
	agentPods := agentPods(ws, false)
	for i := range ws {
		w := &ws[i]
		if w.Role == Agent || fixed[i] {
			continue
		}
		if name, ok := agentPods[podKey(w)]; ok {
			w.Role, w.RoleReason = Agent, "in the same pod as the agent's container "+name
		}
	}
}

// sameImage makes an unmarked workload that runs the image of an agent's
// workload the agent's too: the same agent, described twice (a compose
// file for a laptop, a manifest for the cluster). An official image
// (node:22, python) is a base many services share and says nothing.
func sameImage(ws []model.Workload, fixed []bool) {
	agents := map[string]string{}
	for _, w := range ws {
		if w.Role == Agent && w.Image != nil && strings.Contains(repository(w.Image.Value), "/") {
			if _, ok := agents[w.Image.Value]; !ok {
				agents[w.Image.Value] = w.Name
			}
		}
	}
	for i := range ws {
		w := &ws[i]
		if fixed[i] || w.Role != Unknown && w.Role != "" || w.Image == nil {
			continue
		}
		if name, ok := agents[w.Image.Value]; ok {
			w.Role, w.RoleReason = Agent, fmt.Sprintf("it runs %s, the image of the agent's %s", w.Image.Value, name)
		}
	}
}

// initContainers takes the init containers of an agent's pod out of the
// judged set (unless the policy file chose them): each runs its own command
// to the end before the agent's containers start, so the agent never runs
// in it, and the pod's network, volumes and runtime are judged on the
// agent's own container. A sidecar (an init container that keeps running)
// is not one of them. Its runtime socket or host root stays a note.
func initContainers(ws []model.Workload, chosen []bool) {
	agentPods := agentPods(ws, true)
	for i := range ws {
		w := &ws[i]
		if w.ContainerType != "init" || w.Role != Agent || chosen[i] {
			continue
		}
		if name, ok := agentPods[podKey(w)]; ok {
			w.Role, w.RoleReason = Platform, "an init container of the agent's pod: it runs its own command and exits before "+name+" starts"
		}
	}
}

// linkDevcontainers joins a devcontainer and the compose service it runs
// in, one container: the service is the agent's; the devcontainer's own
// workload carries its user, mounts, features and lifecycle commands, the
// service its network and privileges. A firewall script a lifecycle command
// of the devcontainer runs sets up the service's egress, unless a control
// of the service's own already restricts it.
func linkDevcontainers(ws []model.Workload, fixed []bool) {
	type key struct{ file, service string }
	runs := map[key]int{}
	for i, w := range ws {
		if w.Source != "devcontainer" || w.Compose == nil || w.Compose.Service == "" {
			continue
		}
		for _, f := range w.Compose.Files {
			runs[key{f, w.Compose.Service}] = i
		}
	}
	if len(runs) == 0 {
		return
	}
	for i := range ws {
		w := &ws[i]
		if w.Source != "compose" {
			continue
		}
		di, ok := runs[key{w.File, w.Name}]
		if !ok {
			continue
		}
		dc := &ws[di]
		w.Devcontainer, dc.Compose.Resolved = dc.File, true
		if dc.Egress != nil && dc.Egress.Script != nil && (w.Egress == nil || !w.Egress.Restricted) {
			eg := *dc.Egress
			w.Egress = &eg
		}
		if !fixed[i] {
			w.Role, w.RoleReason = Agent, "the service "+dc.File+" runs in"
		}
	}
}

// judge sets Judged: the agent's workloads, and unknown ones when no
// workload of their repository is known to be the agent's.
func judge(doc *model.Document) {
	repos := repoRoots(doc)
	known := map[string]string{}
	for _, w := range doc.Workloads {
		if w.Role == Agent {
			r := repoOf(repos, w.File)
			if _, ok := known[r]; !ok {
				known[r] = w.Name
				if w.Name == "" { // a devcontainer without a name
					known[r] = fmt.Sprintf("the %s of %s", w.Source, w.File)
				}
			}
		}
	}
	launchers := map[string]string{}
	for _, w := range doc.Workloads {
		if why := launcher(&w); why != "" {
			if _, ok := launchers[w.File]; !ok {
				launchers[w.File] = w.Name + " " + why
			}
		}
	}
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		switch w.Role {
		case Agent:
			w.Judged = true
		case Platform:
			w.Judged = false
		default:
			w.Role = Unknown
			if name, ok := known[repoOf(repos, w.File)]; ok {
				w.Judged = false
				w.RoleReason = fmt.Sprintf("nothing marks it as the agent's, and %s is", name)
			} else if l, ok := launchers[w.File]; ok {
				w.Judged = false
				w.RoleReason = fmt.Sprintf("nothing marks it as the agent's, and %s: the sandboxes are started at run time, not described here (name one in the policy file's sandboxes: to judge it)", l)
			} else {
				w.Judged = true
				w.RoleReason = "no workload is known to be the agent's, so each is judged as if it were (name the sandbox in the policy file's sandboxes:)"
			}
		}
	}
}

// repoRoots are the directories holding a repository of the scan (where a
// .git/config was read), longest first, so a scan of many checkouts judges
// each on its own.
func repoRoots(doc *model.Document) []string {
	var roots []string
	for _, f := range doc.Files {
		if f.Path == ".git/config" {
			continue // the scanned root itself: the default group
		}
		if dir, ok := strings.CutSuffix(f.Path, "/.git/config"); ok {
			roots = append(roots, dir+"/")
		}
	}
	sort.Slice(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	return roots
}

func repoOf(roots []string, file string) string {
	for _, r := range roots {
		if strings.HasPrefix(file, r) {
			return r
		}
	}
	return ""
}

// launchesSandboxes: a variable naming the image of the sandboxes a service
// starts (OpenHands' SANDBOX_RUNTIME_CONTAINER_IMAGE, SANDBOX_IMAGE, a code
// interpreter's APP_EXECUTOR_IMAGE, RUNNER_IMAGE, a remote runtime API's
// RUNTIME_IMAGE, the agent sidecars' SIDECAR_IMAGE…) marks an orchestrator,
// not the sandbox.
func launchesSandboxes(name string) bool {
	n := strings.ToUpper(name)
	for _, what := range []string{"SANDBOX", "EXECUTOR", "RUNNER", "RUNTIME", "SIDECAR"} {
		if i := strings.Index(n, what); i >= 0 && strings.Contains(n[i:], "IMAGE") {
			return true
		}
	}
	return false
}

// launcher says how a platform workload starts the agent's sandboxes at
// run time, "" when it does not: it names their image, its service account
// may create pods, or a name that says it manages or launches (manager,
// orchestrator, launcher…) comes with the host's container runtime socket.
// The other unmarked workloads of its file are then the stack's services,
// not the sandboxes: an AI backend beside a container manager holds no
// agent's untrusted code.
func launcher(w *model.Workload) string {
	if w.Role != Platform {
		return ""
	}
	for _, e := range w.Env {
		if launchesSandboxes(e.Name) {
			return "starts the sandboxes (it names their image in " + e.Name + ")"
		}
	}
	if managesPods(w) != "" {
		return "starts the sandboxes (its service account may create pods)"
	}
	sock := ""
	for _, m := range w.Mounts {
		if m.Type == "bind" || m.Type == "hostPath" {
			if base := path.Base(m.Source); slices.Contains(runtimeSockets, base) {
				sock = m.Source
				break
			}
		}
	}
	if sock == "" {
		return ""
	}
	for _, x := range nameWords(w.Name) {
		if launcherNames[x] {
			return "starts containers through the host's runtime socket " + sock
		}
	}
	return ""
}

// managesPods says why a Kubernetes workload whose service account may
// create pods, by a role that names pods, is a control plane: it starts the
// sandboxes (a code interpreter's pod manager). Exec alone is not: an SRE
// agent execs into the pods it looks after. A wildcard on every resource
// says nothing of the kind (an agent given cluster-admin is still the
// agent), nor does a name that says it is the agent's; "" when none.
func managesPods(w *model.Workload) string {
	for _, g := range w.ServiceAccountGrants {
		if g.Resource == "pods" && (g.Verb == "create" || g.Verb == "*") {
			sa := w.ServiceAccount
			if sa == "" {
				sa = "default"
			}
			return fmt.Sprintf("its service account %s may %s %s (%s): it starts the sandboxes, a control plane", sa, g.Verb, g.Resource, g.Role)
		}
	}
	return ""
}

// Words of a workload's name, in the order they are weighed: a name that
// says it is a platform service (db, api, proxy, migrator…) is one, then a
// name that says it is the agent's (agent, sandbox, claude…), then the
// weaker platform words (server, backend).
var (
	platformNames = words2set("api", "proxy", "gateway", "ingress", "orchestrator", "controller", "operator",
		"webhook", "manager", "scheduler", "migrator", "migrate", "migration", "migrations", "setup", "init",
		"seed", "seeder", "dashboard", "ui", "frontend", "web", "admin", "monitor", "monitoring", "metrics",
		"exporter", "collector", "db", "database", "postgres", "postgresql", "mysql", "mariadb", "mongo",
		"mongodb", "redis", "valkey", "cache", "queue", "broker", "mq", "rabbitmq", "kafka", "minio", "s3",
		"egress", "firewall", "dind",
		"storage", "registry", "nginx", "traefik", "envoy", "caddy", "vault", "keycloak", "auth", "otel",
		"datadog", "telegraf", "jaeger", "grafana", "prometheus", "loki", "elasticsearch", "opensearch",
		"clickhouse", "mailhog", "mailpit", "adminer", "pgadmin", "temporal", "mcp", "controlplane", "hub", "relay")
	agentNames = words2set("agent", "agents", "sandbox", "sandboxes", "claude", "codex", "aider", "goose",
		"opencode", "openhands", "vibe", "devcontainer", "workspace")
	weakPlatformNames = words2set("server", "backend")
	// launcherNames are the words of a name that says the workload starts
	// containers (with the runtime socket: a sandbox launcher).
	launcherNames  = words2set("manager", "orchestrator", "controller", "operator", "scheduler", "launcher", "spawner", "provisioner")
	runtimeSockets = []string{"docker.sock", "containerd.sock", "podman.sock", "crio.sock"}
)

func words2set(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// byName reads what a workload's own name says it is; "" when it says
// nothing. A Kubernetes workload is named by its object and container.
func byName(w *model.Workload) (string, string) {
	ws := nameWords(w.Name)
	for i, x := range ws {
		if platformNames[x] {
			return Platform, fmt.Sprintf("its name %s says it is a platform service (%s)", w.Name, x)
		}
		if x == "control" && i+1 < len(ws) && ws[i+1] == "plane" {
			return Platform, fmt.Sprintf("its name %s says it is a platform service (control plane)", w.Name)
		}
	}
	for _, x := range ws {
		if agentNames[x] {
			return Agent, fmt.Sprintf("its name %s says it is the agent's (%s)", w.Name, x)
		}
	}
	for _, x := range ws {
		if weakPlatformNames[x] {
			return Platform, fmt.Sprintf("its name %s says it is a platform service (%s)", w.Name, x)
		}
	}
	return "", ""
}

func nameWords(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || r == '/' || r == ' '
	})
}
