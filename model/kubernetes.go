package model

// SkippedObject is a group of Kubernetes objects that were read but yield no
// workload: kinds that hold no pod spec (Service, ConfigMap, RBAC, CRD
// definitions), kinds whose pod spec could not be found or understood, and
// agent-sandbox claims whose template is not in the scan. One entry stands
// for Count objects of the same apiVersion, kind and reason; Name and Loc are
// the first one's, so a 5,000-object cluster export yields a few entries.
// An entry with a Format is a file of another format read but not audited
// (a Cursor cloud agent's environment), with Reason saying why.
type SkippedObject struct {
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"`
	// Name is the first object's namespace/name.
	Name   string `json:"name"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
	Loc
	// Format is the collector of a file that is not Kubernetes ("cursor");
	// "" for Kubernetes objects.
	Format string `json:"format,omitempty"`
}

// SandboxRef is an agent-sandbox SandboxClaim or SandboxWarmPool: a request
// for sandboxes made from a SandboxTemplate, declared in any file. The
// kubernetes collector's Link joins it to the template's workloads (labels,
// env, lifetime, pooling) or, when the template is not in the scan, lists it
// in Skipped.
type SandboxRef struct {
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"` // SandboxClaim | SandboxWarmPool
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	Loc
	// Template is the SandboxTemplate named (sandboxTemplateRef.name); ""
	// when a claim names a warm pool instead.
	Template string `json:"template"`
	// WarmPool is the SandboxWarmPool a claim checks out from (warmPoolRef,
	// or a pool name in v1alpha1's warmpool policy).
	WarmPool string `json:"warm_pool,omitempty"`
	// Replicas is a pool's size.
	Replicas int `json:"replicas,omitempty"`
	// Labels are added to the sandbox's pod (additionalPodMetadata).
	Labels map[string]string `json:"labels,omitempty"`
	// Env are variables a claim injects, each with the container it targets
	// ("" = the first container) in EnvContainers at the same index.
	Env           []EnvVar `json:"env"`
	EnvContainers []string `json:"env_containers"`
	// Shutdown is the claim's lifecycle as written.
	Shutdown *Str `json:"shutdown,omitempty"`
	// Resolved is set by Link: "template" when the template's workloads
	// were found, "missing" when not.
	Resolved string `json:"resolved"`
}

// Namespace is a Kubernetes Namespace object with its labels.
type Namespace struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	Loc
}
