// Package model is the one sandbox model that every collector fills and every
// Rego rule judges. Field names are the JSON keys rules see as input; keep them
// stable and documented (docs/model.md).
package model

// Loc is where a fact was found: a path relative to the scanned root, with
// forward slashes, and a 1-based line (0 when the format has no lines).
type Loc struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Str is a string fact with its location.
type Str struct {
	Value string `json:"value"`
	Loc
}

// Bool is a boolean fact with its location. A nil *Bool means "not set".
type Bool struct {
	Value bool `json:"value"`
	Loc
}

// Int is an integer fact with its location.
type Int struct {
	Value int `json:"value"`
	Loc
}

// Document is the rule input: the normalized model of everything collected.
// Slices are never nil once Normalize has run, so rules can count them.
type Document struct {
	Files           []File          `json:"files"`
	Workloads       []Workload      `json:"workloads"`
	Images          []Image         `json:"images"`
	NetworkPolicies []NetworkPolicy `json:"network_policies"`
	Agents          []Agent         `json:"agents"`
	MCPServers      []MCPServer     `json:"mcp_servers"`
	Workflows       []Workflow      `json:"workflows"`
	GitConfigs      []GitConfig     `json:"git_configs"`
	Credentials     []Credential    `json:"credentials"`
	Live            *Live           `json:"live,omitempty"`
	Repository      *Repository     `json:"repository,omitempty"`
	Deps            *Deps           `json:"deps,omitempty"`
	// AgentGroups lists, per Agent.Group, the indices in Agents of the
	// settings files that merge together: one project's files plus the
	// tool's user and managed files.
	AgentGroups map[string][]int `json:"agent_groups"`
	Params      map[string]any   `json:"params"`
	Policy      *Policy          `json:"policy,omitempty"`
	Raw         []RawDoc         `json:"raw,omitempty"`

	// RuntimeClasses are Kubernetes RuntimeClass objects: the kubernetes
	// collector's Link resolves a runtimeClassName declared in another file.
	RuntimeClasses []RuntimeClass `json:"runtime_classes"`
	// ServiceAccounts are Kubernetes ServiceAccount objects: a pod's token
	// automount falls back to its ServiceAccount, often declared elsewhere.
	ServiceAccounts []ServiceAccount `json:"service_accounts"`
	// RBACRoles and RBACBindings are Kubernetes Roles, ClusterRoles and
	// their bindings to service accounts: Link resolves what each pod's
	// service account may do (Workload.ServiceAccountGrants).
	RBACRoles    []RBACRole    `json:"rbac_roles"`
	RBACBindings []RBACBinding `json:"rbac_bindings"`

	// Skipped lists the Kubernetes objects read but not audited as
	// workloads, grouped by apiVersion, kind and reason.
	Skipped []SkippedObject `json:"skipped"`
	// SandboxRefs are agent-sandbox SandboxClaims and SandboxWarmPools that
	// name a SandboxTemplate (or a pool) possibly declared in another file.
	SandboxRefs []SandboxRef `json:"sandbox_refs"`
	// Namespaces are Kubernetes Namespace objects, for the namespace
	// selectors of Cilium and Calico policies.
	Namespaces []Namespace `json:"namespaces"`
	// Firewalls are firewall scripts of the repository; collectors' Link
	// joins them to the workloads whose commands run them.
	Firewalls []Firewall `json:"firewalls"`
	// Scripts are the scripts of the repository that run other scripts.
	Scripts []Script `json:"scripts"`
}

// File is one file a collector read, with the format it was read as.
// Facts counts what the collector drew from it (workloads, images, agents,
// MCP servers, workflows, git configs, credentials, Kubernetes objects it
// models): a file read whole that yielded none is no evidence for any
// property. A file whose reading failed before it yielded a fact is not
// listed (its errors[] entry is).
type File struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`
	Facts int    `json:"facts"`
}

// RawDoc keeps a parsed document beside the model for format-specific and
// users' own rules.
type RawDoc struct {
	File    string `json:"file"`
	Kind    string `json:"kind"`
	Content any    `json:"content"`
}

// Workload is a container or VM definition from any format: a compose
// service, a Kubernetes container (with its pod's settings), a devcontainer.
type Workload struct {
	ID     string `json:"id"`     // stable id, e.g. "compose:app", "k8s:Deployment/default/api/main"
	Source string `json:"source"` // compose | kubernetes | devcontainer
	Name   string `json:"name"`
	Loc
	// Role says whose workload this is: agent (the agent or untrusted code
	// runs there), platform (databases, caches, registries, proxies,
	// observability, UIs, control planes) or unknown. A collector sets it
	// only when its format says so (the devcontainer's own service, an
	// agent-sandbox CRD), with RoleReason; the scan decides the rest.
	Role       string `json:"role,omitempty"`
	RoleReason string `json:"role_reason,omitempty"`
	// Judged is true when the sandbox rules judge this workload: it is the
	// agent's, or its role is unknown and no workload of the scan is known
	// to be the agent's. Set by the scan (collectors/roles), never by a
	// collector.
	Judged bool `json:"judged"`
	// Overlay is set on a compose service with no image, build or extends:
	// an override file's addition to a service another file defines
	// (docker compose -f base.yml -f override.yml). What it sets counts;
	// what it leaves out says nothing.
	Overlay bool `json:"overlay,omitempty"`
	// ReachableBy names the agent's workload that can reach this one's
	// container API (a Docker-in-Docker daemon or socket proxy on a network
	// they share): its socket and privileges are then the agent's. Set by
	// the scan.
	ReachableBy string `json:"reachable_by,omitempty"`
	// Networks are the compose networks the service joins ("default" when
	// it names none); empty for other formats and for network_mode.
	Networks []string `json:"networks"`
	// Compose names the compose service a devcontainer runs in
	// (dockerComposeFile + service); nil for other workloads.
	Compose *ComposeRef `json:"compose,omitempty"`
	// Devcontainer is the devcontainer.json that runs in this compose
	// service (set by the scan when both are read): one container, whose
	// network the service's workload speaks for and whose user the
	// devcontainer's does.
	Devcontainer string `json:"devcontainer,omitempty"`
	Image        *Str   `json:"image,omitempty"`
	// Runtime is the isolation runtime asked for: runc (default), gvisor, kata,
	// firecracker, sysbox…, normalized from runtimeClassName / runtime / --runtime.
	Runtime      *Str     `json:"runtime,omitempty"`
	Privileged   *Bool    `json:"privileged,omitempty"`
	User         *Str     `json:"user,omitempty"` // "0"/"root" mean root
	RunAsNonRoot *Bool    `json:"run_as_non_root,omitempty"`
	CapAdd       []Str    `json:"cap_add"` // upper case without CAP_ prefix; "ALL" kept
	CapDrop      []Str    `json:"cap_drop"`
	SecurityOpt  []Str    `json:"security_opt"`      // raw options: seccomp=unconfined, apparmor=unconfined, no-new-privileges
	Seccomp      *Str     `json:"seccomp,omitempty"` // unconfined | runtime/default | localhost/… | default
	AllowPrivEsc *Bool    `json:"allow_privilege_escalation,omitempty"`
	ReadOnlyRoot *Bool    `json:"read_only_root,omitempty"`
	HostNetwork  *Bool    `json:"host_network,omitempty"`
	HostPID      *Bool    `json:"host_pid,omitempty"`
	HostIPC      *Bool    `json:"host_ipc,omitempty"`
	NetworkMode  *Str     `json:"network_mode,omitempty"` // host | none | bridge | container:x | <named network>
	Egress       *Egress  `json:"egress,omitempty"`       // nil: nothing declared about egress
	Mounts       []Mount  `json:"mounts"`
	Env          []EnvVar `json:"env"`
	EnvFiles     []Str    `json:"env_files"`
	Restart      *Str     `json:"restart,omitempty"`
	Ports        []Str    `json:"ports"` // published / forwarded ports
	// ServiceAccountToken: is a Kubernetes API token mounted (automount
	// resolved from pod and ServiceAccount; nil when not Kubernetes).
	ServiceAccountToken *Bool  `json:"service_account_token,omitempty"`
	ServiceAccount      string `json:"service_account,omitempty"`
	// ServiceAccountGrants are the rights the pod's service account holds
	// through RBAC bindings of the scan on pods, pod exec, workload
	// controllers and secrets (Kubernetes only).
	ServiceAccountGrants []Grant           `json:"service_account_grants,omitempty"`
	Namespace            string            `json:"namespace,omitempty"`
	Labels               map[string]string `json:"labels,omitempty"`
	// Annotations are a Kubernetes pod template's annotations.
	Annotations map[string]string `json:"annotations,omitempty"`
	Commands    []Command         `json:"commands"`
	// KeepsEntrypoint: a devcontainer that keeps its image's ENTRYPOINT
	// (overrideCommand: false); compose and Kubernetes workloads always do.
	KeepsEntrypoint bool  `json:"keeps_entrypoint,omitempty"`
	Features        []Str `json:"features"` // devcontainer features, id without version
	// Profiles are a compose service's profiles: compose starts it only
	// when one of them is asked for.
	Profiles []Str `json:"profiles,omitempty"`
	// Devices are the host devices given to the container, by their path
	// inside it (compose devices:, docker --device).
	Devices []Str `json:"devices,omitempty"`
	// VMHost is set when the workload starts virtual machines for the code
	// it runs (/dev/kvm given to a runner that is not itself where the
	// agent works): that code does not share the host kernel, and the
	// runner outlives each task by design.
	VMHost *Str `json:"vm_host,omitempty"`
	// RepoGrants are the other repositories a codespace's token is given
	// access to (customizations.codespaces.repositories).
	RepoGrants []RepoGrant `json:"repo_grants"`

	// ServiceAccountTokenFrom says what decided ServiceAccountToken: pod
	// (the pod spec), service-account (the ServiceAccount object) or
	// default (neither: Kubernetes mounts the token).
	ServiceAccountTokenFrom string `json:"service_account_token_from,omitempty"`
	// RuntimeClass is the Kubernetes runtimeClassName as written; Runtime
	// holds the isolation it resolves to through RuntimeClass objects.
	RuntimeClass string `json:"runtime_class,omitempty"`

	// Object is the Kubernetes object that declares the workload, as
	// Kind/namespace/name ("SandboxTemplate/agents/python"): several
	// workloads share it, one per container.
	Object string `json:"object,omitempty"`
	// ContainerType is the container's place in its pod: main, init,
	// ephemeral, sidecar (Argo, Tekton) or step (Tekton); "" outside
	// Kubernetes.
	ContainerType string `json:"container_type,omitempty"`
	// Pool says how a pool hands the workload out, when it comes from one
	// (an agent-sandbox SandboxWarmPool): whether each task gets a sandbox
	// no task used before, or one that served others.
	Pool *Str `json:"pool,omitempty"`
	// Shutdown is when the platform deletes the workload on its own, as
	// written (agent-sandbox shutdownTime, ttlSecondsAfterFinished); nil
	// when nothing says.
	Shutdown *Str `json:"shutdown,omitempty"`
	// Build is the Dockerfile and context the workload's image is built
	// from (devcontainer build, compose build), nil when it pulls an image.
	Build *Build `json:"build,omitempty"`
	// ImageUser is the user the built image runs as when the Dockerfile was
	// read in this scan: its final USER, or root when it sets none.
	ImageUser *Str `json:"image_user,omitempty"`
	// Sudo lists the sudoers grants that apply to the user the workload
	// runs as (User, else ImageUser), from the image and its features.
	Sudo []SudoRule `json:"sudo"`
	// Workspace is the mount the repository is worked on through: a
	// devcontainer's workspaceMount, or the read-write bind of the local
	// folder that the devcontainer CLI makes when none is given.
	Workspace *Mount `json:"workspace,omitempty"`
}

// ComposeRef is the compose service a devcontainer.json runs in: its
// dockerComposeFile entries (root-relative), service and runServices.
type ComposeRef struct {
	Files       []string `json:"files"`
	Service     string   `json:"service"`
	RunServices []string `json:"run_services"`
	// Resolved is set by the scan when the service is among the
	// workloads read (its workload's devcontainer field names this file).
	Resolved bool `json:"resolved"`
	Loc
}

// Egress is what the configuration declares about outbound traffic.
type Egress struct {
	// Restricted is true when a control denies egress by default
	// (network none, an egress NetworkPolicy selecting the pod, internal network).
	Restricted bool `json:"restricted"`
	// Allow lists named exceptions (CIDRs, hosts, ports) when known.
	Allow []string `json:"allow"`
	// AllowAll is true when the control exists but allows every destination.
	AllowAll bool   `json:"allow_all"`
	By       string `json:"by"` // what declared it, e.g. "NetworkPolicy default/deny-egress"
	Loc
	// Deny lists destinations a deny rule takes out of what is allowed
	// (Cilium egressDeny, Calico Deny rules).
	Deny []string `json:"deny"`
	// OpenPorts are the ports on which every destination is allowed
	// (0.0.0.0/0, Cilium's world, a rule without peers — limited to ports),
	// e.g. "TCP/443": the internet on those ports.
	OpenPorts []string `json:"open_ports"`
	// Unverified says what the scan could not evaluate about the control:
	// a policy whose selector depends on labels the scan does not know
	// (namespace labels without the Namespace object), a construct whose
	// meaning differs between versions. Restricted is then what the
	// verified part says.
	Unverified []string `json:"unverified"`
	// ScriptUnverified is set when the control is a firewall script a
	// command runs in the container, read without running it: nothing
	// shows that it ran, nor that its rules hold.
	ScriptUnverified bool          `json:"script_unverified,omitempty"`
	Script           *EgressScript `json:"script,omitempty"`
}

// Mount is a volume, bind mount, hostPath or PVC.
type Mount struct {
	Type       string `json:"type"` // bind | volume | hostPath | tmpfs | pvc | secret | configmap | emptyDir
	Source     string `json:"source"`
	Target     string `json:"target"`
	ReadOnly   bool   `json:"read_only"`
	Persistent bool   `json:"persistent"` // survives the workload (named volume, PVC, host path)
	Loc
	// WorkspaceRel is the host source relative to the repository the
	// configuration belongs to, when the source is given relative to it:
	// "." for the repository itself (${localWorkspaceFolder}, compose ".."
	// from .devcontainer/), ".." for its parent, "sub/dir" inside it.
	WorkspaceRel string `json:"workspace_rel,omitempty"`
}

// EnvVar is an environment variable. Its value is never kept: only whether it
// holds a secret, a reference, or forwards a variable from the host.
type EnvVar struct {
	Name string `json:"name"`
	// Secret is set when the literal value is a credential.
	Secret *SecretRef `json:"secret,omitempty"`
	// FromHost names the host variable forwarded into the sandbox
	// (${localEnv:X}, ${X} in compose, env: from secrets in workflows).
	FromHost string `json:"from_host,omitempty"`
	// HostSensitive is true when FromHost's name looks like a credential
	// (the test SensitiveName is of the variable's own name).
	HostSensitive bool `json:"host_sensitive,omitempty"`
	// FromSecret is true when the value comes from a secret store reference
	// (Kubernetes secretKeyRef, ${{ secrets.X }}).
	FromSecret bool `json:"from_secret,omitempty"`
	// SensitiveName is true when the name looks like a credential (TOKEN, KEY, SECRET, PASSWORD…).
	SensitiveName bool `json:"sensitive_name"`
	// Weak is true when the literal value under a password's or secret's
	// name, or the default of a ${NAME:-default} reference, is one anyone
	// could guess (postgres, changeme, minioadmin123); Secret is nil then.
	Weak bool `json:"weak,omitempty"`
	// URLHost is the host a connection URL with a guessable password
	// names (db in postgres://app:app@db/app), "" otherwise.
	URLHost string `json:"url_host,omitempty"`
	// Switch names the agent guard the variable's literal value turns off
	// (codex-no-sandbox, openhands-host-network); "" for none.
	Switch string `json:"switch,omitempty"`
	Loc
}

// SecretRef describes a detected secret without its value.
type SecretRef struct {
	Kind        string `json:"kind"`     // e.g. github-pat, aws-access-key, openai-api-key, generic
	Lifetime    string `json:"lifetime"` // long | short | session | unknown
	Fingerprint string `json:"fingerprint"`
}

// Command is a command a workload or tool runs, with where it runs.
type Command struct {
	Phase  string `json:"phase"` // initialize | onCreate | postCreate | postStart | build | entrypoint | setup
	OnHost bool   `json:"on_host"`
	Text   string `json:"text"` // secrets redacted
	Loc
	// Scripts are the script files the command runs (bash x.sh, ./x.sh,
	// sudo /usr/local/bin/x.sh): relative to the scanned root when the
	// format places them in the repository, else the container path.
	Scripts []string `json:"scripts"`
	// SudoScripts are those of Scripts it runs through sudo or doas.
	SudoScripts []string `json:"sudo_scripts"`
	// HostSecret says which credential of the host a command run there
	// (initializeCommand) writes into the workspace the container mounts,
	// and where: "gh auth token into .devcontainer/.env". Names only.
	HostSecret string `json:"host_secret,omitempty"`
}

// RepoGrant is access to another repository asked for a codespace.
type RepoGrant struct {
	Repo  string   `json:"repo"`  // owner/name, or owner/* for all of an owner's
	Write []string `json:"write"` // permissions granted write (write-all: "*")
	Loc
}

// Image is a Dockerfile / Containerfile.
type Image struct {
	Loc
	BaseImages  []BaseImage `json:"base_images"`
	FinalUser   *Str        `json:"final_user,omitempty"` // last USER of the final stage; nil = root by default
	Env         []EnvVar    `json:"env"`                  // ENV and ARG with secret classification
	PipeToShell []Str       `json:"pipe_to_shell"`        // RUN curl … | sh (text redacted)
	AddURLs     []Str       `json:"add_urls"`
	// Sudoers are the sudoers lines the final stage's RUN instructions
	// write; Groups the group memberships they add; Copies the files the
	// final stage copies in from the build context.
	Sudoers []SudoRule  `json:"sudoers"`
	Groups  []UserGroup `json:"groups"`
	Copies  []Copy      `json:"copies"`
	// Sudo are the grants of Sudoers (and of a Dev Containers base image)
	// that apply to RunUser, the user containers from the image run as.
	Sudo []SudoRule `json:"sudo"`
	// SudoersRemoved lists the sudoers files the final stage deletes
	// (rm /etc/sudoers.d/vscode), and "sudo" when it uninstalls sudo: a
	// base image's grant in them no longer holds.
	SudoersRemoved []Str `json:"sudoers_removed"`
	// RunUser is FinalUser with the Dockerfile's ARG and ENV defaults
	// substituted (USER ${USERNAME} with ARG USERNAME=vscode is vscode).
	RunUser *Str `json:"run_user,omitempty"`
	// Entrypoint is the final stage's ENTRYPOINT (shell text or argv
	// joined, redacted); nil when it sets none.
	Entrypoint *Str `json:"entrypoint,omitempty"`
	// DropsTo is the non-root user the entrypoint (or a script of the
	// build context it runs) switches to before the work starts (gosu,
	// su-exec, su -c): the image starts as root to set up, its processes
	// then run as that user. Set by the scan; nil when nothing shows it.
	DropsTo *Str `json:"drops_to,omitempty"`
}

// BaseImage is a FROM line.
type BaseImage struct {
	Ref    string `json:"ref"`
	Pinned bool   `json:"pinned"` // by digest
	Tag    string `json:"tag"`    // "" when none (means latest)
	Stage  string `json:"stage"`
	Loc
}

// NetworkPolicy is a Kubernetes NetworkPolicy, kept for users' rules; the
// collector already resolves which workloads it selects into Workload.Egress.
type NetworkPolicy struct {
	Name        string   `json:"name"`
	Namespace   string   `json:"namespace"`
	PolicyTypes []string `json:"policy_types"`
	EgressRules int      `json:"egress_rules"`
	Loc
	// PodSelector selects the pods the policy applies to (empty: all pods
	// of the namespace).
	PodSelector LabelSelector `json:"pod_selector"`
	// EgressAllowAll is true when an egress rule allows every destination
	// (egress: [{}], or 0.0.0.0/0 on every port).
	EgressAllowAll bool `json:"egress_allow_all"`
	// EgressAllow lists the egress exceptions readably, e.g. "10.0.0.0/8",
	// "pods k8s-app=kube-dns in namespaces kubernetes.io/metadata.name=kube-system on UDP/53".
	EgressAllow []string `json:"egress_allow"`

	// Kind is NetworkPolicy, CiliumNetworkPolicy,
	// CiliumClusterwideNetworkPolicy, CalicoNetworkPolicy (projectcalico.org
	// NetworkPolicy), CalicoGlobalNetworkPolicy, or SandboxTemplate (the
	// NetworkPolicy agent-sandbox's controller creates for a template).
	Kind       string `json:"kind"`
	APIVersion string `json:"api_version"`
	// ClusterWide: the policy selects pods of every namespace.
	ClusterWide bool `json:"cluster_wide"`
	// Selector, NamespaceSelector and ServiceAccountSelector are Calico
	// selector expressions ("" for the label-selector kinds).
	Selector               string `json:"selector,omitempty"`
	NamespaceSelector      string `json:"namespace_selector,omitempty"`
	ServiceAccountSelector string `json:"service_account_selector,omitempty"`
	// Template names the SandboxTemplate whose sandboxes a SandboxTemplate
	// policy selects.
	Template string `json:"template,omitempty"`
	// Order is Calico's order (nil: applied last); NetworkPolicies count as 1000.
	Order *float64 `json:"order,omitempty"`
	// Tier is Calico's tier ("" and "default" are the default tier).
	Tier string `json:"tier,omitempty"`
	// IsolatesEgress: the policy puts the pods it selects into default-deny
	// for egress (Egress in policyTypes / types; a Cilium egress or
	// egressDeny section, unless enableDefaultDeny.egress is false).
	IsolatesEgress bool `json:"isolates_egress"`
	// Rules are the egress rules in order: Calico takes the first that
	// matches; the other kinds allow the union of their allow rules and
	// Cilium's deny rules win over any allow.
	Rules []PolicyRule `json:"rules"`
	// Unverified says what of the policy the scan could not evaluate.
	Unverified string `json:"unverified,omitempty"`
}

// PolicyRule is one egress rule of a network policy.
type PolicyRule struct {
	// Action is allow, deny, pass (Calico: on to the next tier) or log.
	Action string `json:"action"`
	// All: the rule matches every destination on every port.
	All bool `json:"all"`
	// OpenPorts: the rule matches every destination, on these ports only.
	OpenPorts []string `json:"open_ports,omitempty"`
	// Text describes what it matches, e.g. "api.github.com on TCP/443".
	Text string `json:"text"`
	Loc
}

// LabelSelector is a Kubernetes label selector.
type LabelSelector struct {
	MatchLabels      map[string]string  `json:"match_labels"`
	MatchExpressions []LabelRequirement `json:"match_expressions"`
}

// LabelRequirement is one matchExpressions entry: Operator is In, NotIn,
// Exists or DoesNotExist.
type LabelRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

// RuntimeClass is a Kubernetes RuntimeClass: the handler (runsc, kata-qemu…)
// a runtimeClassName stands for.
type RuntimeClass struct {
	Name    string `json:"name"`
	Handler string `json:"handler"`
	Loc
}

// ServiceAccount is a Kubernetes ServiceAccount; AutomountToken is nil when
// automountServiceAccountToken is not set on it.
type ServiceAccount struct {
	Name           string `json:"name"`
	Namespace      string `json:"namespace"`
	AutomountToken *Bool  `json:"automount_token,omitempty"`
	Loc
}

// RBACRole is a Kubernetes Role (Namespace set) or ClusterRole, with the
// rules that matter to a sandbox: Grants on pods, pods/exec, pods/attach,
// workload controllers, secrets and "*".
type RBACRole struct {
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Namespace string  `json:"namespace,omitempty"`
	Grants    []Grant `json:"grants"`
	Loc
}

// RBACBinding is a RoleBinding or ClusterRoleBinding of a role to service
// accounts (namespace/name).
type RBACBinding struct {
	Kind            string   `json:"kind"`
	Name            string   `json:"name"`
	Namespace       string   `json:"namespace"`
	RoleKind        string   `json:"role_kind"`
	RoleName        string   `json:"role_name"`
	ServiceAccounts []string `json:"service_accounts"`
	Loc
}

// Grant is one verb on one resource that a role allows; Role and Binding
// are set on a workload's grants (Kind/name of each). Loc is the rule's.
type Grant struct {
	Verb     string `json:"verb"`
	Resource string `json:"resource"`
	Role     string `json:"role,omitempty"`
	Binding  string `json:"binding,omitempty"`
	Loc
}

// Agent is one coding agent's settings (one per file, and one per Codex profile).
type Agent struct {
	Tool string `json:"tool"` // claude-code | codex | gemini | qwen | cursor | copilot | opencode
	// Project is the directory whose settings merge with this file's (the
	// parent of .claude/, .codex/…); "*" for user and managed files, which
	// apply to every project. Group is tool|project: the key of
	// Document.AgentGroups. Both are set by the scan, not by collectors.
	Project string `json:"project"`
	Group   string `json:"group"`
	Scope   string `json:"scope"`   // project | local | user | managed
	Profile string `json:"profile"` // Codex profile name, "" for top level
	Loc
	// Workload is the id of the container whose command starts the agent
	// (a compose service's command, a script's docker run), "" when a
	// settings file or a workflow speaks for it: there the container is the
	// sandbox, judged by the workload rules.
	Workload string `json:"workload,omitempty"`
	// SandboxEnabled: is the agent's own command sandbox on (nil: not set).
	SandboxEnabled   *Bool `json:"sandbox_enabled,omitempty"`
	SandboxMode      *Str  `json:"sandbox_mode,omitempty"` // codex sandbox_mode, gemini tools.sandbox, cursor type
	AllowUnsandboxed *Bool `json:"allow_unsandboxed,omitempty"`
	ExcludedCommands []Str `json:"excluded_commands"`
	UnixSockets      []Str `json:"unix_sockets"`
	AllowAllSockets  *Bool `json:"allow_all_unix_sockets,omitempty"`
	// NetworkAccess: does the agent's sandbox allow network (nil: not set).
	NetworkAccess  *Bool `json:"network_access,omitempty"`
	AllowedDomains []Str `json:"allowed_domains"`
	// NetworkDefault: allow | deny when the format says so.
	NetworkDefault *Str `json:"network_default,omitempty"`
	// ApprovalMode normalized: bypass (bypassPermissions, never, yolo) | auto | ask | plan | default.
	ApprovalMode      *Str     `json:"approval_mode,omitempty"`
	ApprovalRaw       *Str     `json:"approval_raw,omitempty"`
	BypassDisabled    *Bool    `json:"bypass_disabled,omitempty"`
	EnvInheritAll     *Bool    `json:"env_inherit_all,omitempty"`
	EnvIgnoreExcludes *Bool    `json:"env_ignore_default_excludes,omitempty"`
	Allow             []Str    `json:"allow"` // permission rules as written, e.g. Bash(git push:*)
	Deny              []Str    `json:"deny"`
	Ask               []Str    `json:"ask"`
	Env               []EnvVar `json:"env"`
	APIKeyHelper      *Str     `json:"api_key_helper,omitempty"`
	UnknownKeys       []Str    `json:"unknown_keys"`
	HistoryPersist    *Str     `json:"history_persistence,omitempty"`
	EnableAllMCP      *Bool    `json:"enable_all_project_mcp,omitempty"`

	// Context names where an agent that a workflow step starts runs, e.g.
	// `workflow "Claude" job "review"`; "" for settings files. Such agents
	// have Scope "workflow" and sit at the step: their settings are the
	// action's inputs and the CLI's flags (claude_args, codex-args, --yolo).
	Context string `json:"context,omitempty"`
	// Tools is the allowlist of built-in tools the agent has at all (Gemini
	// tools.core / coreTools, Claude --tools). With approval bypassed, only
	// these run unprompted. ToolList is where the list is written: nil when
	// none is (every tool is there); set with no Tools, no built-in tool is.
	Tools    []Str `json:"tools"`
	ToolList *Loc  `json:"tool_list,omitempty"`
	// Speaks lists the properties the settings file is evidence for when
	// the format splits them over files (Cursor: sandbox.json the
	// network, the CLI's cli.json review); empty: network and review.
	Speaks []string `json:"speaks,omitempty"`
}

// MCPServer is one MCP server entry from any MCP config.
type MCPServer struct {
	Name      string `json:"name"`
	Config    string `json:"config"`    // mcp.json | vscode | claude-desktop | codex | gemini | copilot
	Transport string `json:"transport"` // stdio | http | sse
	Loc
	Command   string   `json:"command"`
	Args      []string `json:"args"`     // secrets redacted
	URL       string   `json:"url"`      // credentials redacted (userinfo, secret query values)
	Launcher  string   `json:"launcher"` // npx | uvx | pipx | docker | bunx | "" (direct binary)
	Package   string   `json:"package"`
	Version   string   `json:"version"` // "" when none; "latest" when @latest
	Pinned    bool     `json:"pinned"`
	PlainHTTP bool     `json:"plain_http"`        // remote URL over http:// to a non-loopback host
	Trusted   *Bool    `json:"trusted,omitempty"` // gemini trust: skips confirmations
	AllTools  bool     `json:"all_tools"`         // copilot tools ["*"]
	Env       []EnvVar `json:"env"`

	// EnvFile is the envFile the server's environment is loaded from (VS Code).
	EnvFile *Str `json:"env_file,omitempty"`
	// Headers are the HTTP headers the client sends: name, whether the
	// value is a literal secret, or the variable it comes from (never the
	// value).
	Headers []EnvVar `json:"headers"`
}

// Workflow is a GitHub Actions workflow that runs or prepares an agent.
type Workflow struct {
	Loc
	Name              string       `json:"name"`
	Triggers          []Str        `json:"triggers"`
	PullRequestTarget *Str         `json:"pull_request_target,omitempty"`
	CopilotSetup      bool         `json:"copilot_setup"` // .github/workflows/copilot-setup-steps.yml
	RunsAgent         bool         `json:"runs_agent"`
	Permissions       *Permissions `json:"permissions,omitempty"` // workflow level; nil = not set
	Jobs              []Job        `json:"jobs"`
	// WorkflowRun is the workflow_run trigger: the workflow runs with the
	// base repository's token and secrets after a workflow a fork's pull
	// request can start.
	WorkflowRun *Str `json:"workflow_run,omitempty"`
}

// Permissions is a GITHUB_TOKEN permissions block.
type Permissions struct {
	All    string            `json:"all"`    // write-all | read-all | "" when scoped
	Scopes map[string]string `json:"scopes"` // scope -> read | write | none
	Loc
}

// Job is one workflow job.
type Job struct {
	ID string `json:"id"`
	Loc
	RunsOn      *Str         `json:"runs_on,omitempty"`
	SelfHosted  bool         `json:"self_hosted"`
	Ephemeral   bool         `json:"ephemeral"`             // label says ephemeral / jit
	Permissions *Permissions `json:"permissions,omitempty"` // nil = inherits workflow / repo default
	// Environment is the environment the job deploys to (its name as
	// written; an expression is kept as such): its protection rules
	// (required reviewers) gate each run and its secrets.
	Environment *Str `json:"environment,omitempty"`
	// EffectiveWrite lists scopes the job's token can write, resolved from job,
	// workflow and the default (unset everywhere = unknown, "default").
	EffectiveWrite []string    `json:"effective_write"`
	RunsAgent      bool        `json:"runs_agent"`
	AgentSteps     []AgentStep `json:"agent_steps"`
	Secrets        []Str       `json:"secrets"` // names of secrets referenced
	Checkouts      []Checkout  `json:"checkouts"`
	AutoMerge      []Str       `json:"auto_merge"` // steps that enable/perform merges
	Pushes         []Str       `json:"pushes"`     // run steps that git push
	// OpensPR are the steps that open a pull request (gh pr create,
	// peter-evans/create-pull-request, a github-script's pulls.create) or
	// check one out to work on (gh pr checkout): pushes then go to a
	// branch a person reviews.
	OpensPR []Str `json:"opens_pr"`
	// PRCheckouts are run: commands that check out a pull request's code
	// (gh pr checkout, a git fetch of pull/N/head or pull/N/merge): on a
	// comment trigger, code a fork's author wrote.
	PRCheckouts    []Str    `json:"pr_checkouts"`
	TimeoutMinutes *Int     `json:"timeout_minutes,omitempty"`
	Env            []EnvVar `json:"env"`
	// Injections are expressions the runner expands into a run: script or
	// an actions/github-script script before it runs: what they hold
	// becomes code.
	Injections []Injection `json:"injections"`
	// GuardGaps are the top-level || branches of the job's if: that start
	// it on an outsider's text (a comment or issue body) without the
	// author_association check another branch makes.
	GuardGaps []Str `json:"guard_gaps"`
	// GuardMisdirected are branches of the job's if: that start it on a
	// comment's or review's text but check the author_association of the
	// issue or pull request it is on: anyone may comment on a member's
	// issue. The value says whose association is checked.
	GuardMisdirected []Str `json:"guard_misdirected"`
	// SameRepoOnly is true when the job's if: admits only events from this
	// repository, not a fork's (head repository == github.repository,
	// workflow_run.pull_requests[0]): pull request and run heads are then
	// written by someone with write access.
	SameRepoOnly bool `json:"same_repo_only,omitempty"`
	// AuthorChecked is true when the job's if: checks who wrote the text
	// that starts it (author_association, or the actor's login) on every
	// branch that reads an outsider's text (a comment, review, issue or
	// pull request body or title), and some branch does.
	AuthorChecked bool `json:"author_checked,omitempty"`
	// IgnoredKeys lists keys of the copilot-setup-steps job that the Copilot
	// coding agent does not honour (only steps, permissions, runs-on,
	// services, snapshot and timeout-minutes are); empty for other jobs.
	IgnoredKeys []Str `json:"ignored_keys"`

	// Runner says what runs-on shows: github-hosted (GitHub's images),
	// self-hosted (the self-hosted label), hosted-provider (a runner
	// service's label, e.g. blacksmith-…, one VM per job), custom (another
	// label or a runner group: a larger runner, an ARC scale set or a
	// self-hosted runner — the label alone cannot tell) or expression.
	Runner       string   `json:"runner"`
	RunnerLabels []string `json:"runner_labels"`
	// Container is the job's container: the agent's steps run in it.
	Container *JobContainer `json:"container,omitempty"`
	// StateRestores are steps that bring agent state (session history,
	// memory, settings under ~/.claude, ~/.codex, ~/.gemini, .aider*) from
	// an earlier run: a cache restore or an artifact download.
	StateRestores []Str `json:"state_restores"`
}

// JobContainer is a job's container: image and the docker options that
// weaken its isolation from the runner.
type JobContainer struct {
	Image *Str `json:"image,omitempty"`
	Loc
	// Privileges lists, readably, each option or volume that gives the
	// container the runner host: "--privileged", "--cap-add SYS_ADMIN",
	// "--pid host", "--network host", "volume /var/run/docker.sock".
	Privileges []Str `json:"privileges"`
}

// AgentStep is a step that runs an agent action.
type AgentStep struct {
	Uses   string `json:"uses"`   // e.g. anthropics/claude-code-action@v1
	Pinned bool   `json:"pinned"` // full commit SHA
	// Tool names the agent: claude-code | codex | gemini | cursor | copilot |
	// aider | opencode | openhands | qwen | pr-agent | other.
	Tool string `json:"tool"`
	// Run is the agent CLI command of a run: step (secrets redacted); Uses is
	// "" then. Action steps leave it "".
	Run string `json:"run,omitempty"`
	Loc
	AllowedBots     *Str           `json:"allowed_bots,omitempty"`
	AllowedNonWrite *Str           `json:"allowed_non_write_users,omitempty"`
	Args            *Str           `json:"args,omitempty"`            // claude_args / codex args, redacted
	PermissionMode  *Str           `json:"permission_mode,omitempty"` // the approval mode as written (input or flag); judged in agents[]
	Sandbox         *Str           `json:"sandbox,omitempty"`         // the sandbox mode as written (codex-action input or flag)
	Inputs          map[string]Str `json:"inputs"`                    // with: values (secrets redacted to their reference)
	// SafetyStrategy is openai/codex-action's safety-strategy (drop-sudo
	// when unset): read-only and unsafe leave the runner's sudo to Codex,
	// and with it the memory of the proxy that holds the API key.
	SafetyStrategy *Str `json:"safety_strategy,omitempty"`
	// Secrets are the secrets that reach the agent's process, each once,
	// with the way it gets there.
	Secrets []AgentSecret `json:"secrets"`
}

// AgentSecret is a secret that reaches an agent step's process.
type AgentSecret struct {
	Name string `json:"name"` // the secret's name (secrets.NAME), GITHUB_TOKEN for the job token
	// Via is how it gets there: step-env (the step's env), input (an input
	// the action passes on), job-env, workflow-env, github-env (written to
	// $GITHUB_ENV by an earlier step), step-output (an earlier run step's
	// output the agent step reads), file (written to disk by an earlier
	// step, e.g. docker login, gh auth login, a redirect), checkout (a
	// checkout token left in .git/config).
	Via string `json:"via"`
	// To is the variable or input the secret is bound to (ANTHROPIC_API_KEY,
	// anthropic_api_key); "" for files and scripts.
	To string `json:"to,omitempty"`
	// ModelKey is true when the secret is the agent's own model
	// credential (the API key or token it calls its model with).
	ModelKey bool `json:"model_key"`
	// Setting is true when the secret's name says it holds a setting kept
	// out of sight (CUSTOM_MODEL, …_BASE_URL, …_PROJECT, …_PROVIDER), not a
	// credential.
	Setting bool `json:"setting,omitempty"`
	// App is set when the secret is a GitHub App installation token an
	// earlier step of the job minted (actions/create-github-app-token);
	// Name is then the output that holds it (steps.ID.outputs.token).
	App *AppToken `json:"app,omitempty"`
	Loc
}

// Injection is one expression expanded into a script.
type Injection struct {
	Expr string `json:"expr"` // github.event.issue.body, steps.codex.outputs.final-message
	// Source is who writes its value: untrusted (an outsider: an issue,
	// comment, pull request, commit message or branch name) or agent (an
	// agent step's output, in this job or through a job's outputs).
	Source string `json:"source"`
	// Into is what the text is expanded into: "" a script (run:,
	// github-script), "args" an agent action's CLI arguments (claude_args,
	// aider_args), where it can add options.
	Into string `json:"into,omitempty"`
	Loc
}

// AppToken is what the step that minted a GitHub App token asked for.
type AppToken struct {
	Step string `json:"step"` // the minting step's id
	// Scoped is true when the step names the permissions it wants
	// (permission-* inputs); an unscoped token carries every permission
	// of the app's installation.
	Scoped bool     `json:"scoped"`
	Write  []string `json:"write"` // scopes it asks write access to
}

// Checkout is an actions/checkout step.
type Checkout struct {
	Uses               string `json:"uses"`
	PersistCredentials bool   `json:"persist_credentials"` // default true
	Token              string `json:"token"`               // reference, e.g. secrets.PAT; "" = GITHUB_TOKEN
	Ref                string `json:"ref"`                 // ${{ env.X }} replaced by the value the step, job or workflow env gives X
	Loc
	// Repository is the repository input ("" = the workflow's own).
	Repository string `json:"repository,omitempty"`
}

// GitConfig is a git config file (and the files it includes).
type GitConfig struct {
	Loc
	CredentialHelpers []Str `json:"credential_helpers"`
	ExtraHeaders      []Str `json:"extra_headers"`   // key only, e.g. http.https://github.com/.extraheader
	CredentialURLs    []Str `json:"credential_urls"` // remotes with user:password@ (redacted)
	Includes          []Str `json:"includes"`
}

// Credential is any credential found anywhere.
type Credential struct {
	SecretRef
	Where   string `json:"where"`   // env | file | header | arg | url | git-config | settings | workflow | live-env | live-file
	Context string `json:"context"` // human description, e.g. "MCP server github env GITHUB_TOKEN"
	// ReadableByAgent: true when the agent can read it (in its files or env).
	ReadableByAgent bool `json:"readable_by_agent"`
	// Workload is the id of the workload whose definition holds it (a
	// compose service's environment), "" elsewhere.
	Workload string `json:"workload,omitempty"`
	Loc
}
