package kubernetes

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// security is one securityContext (pod or container level).
type security struct {
	privileged, runAsNonRoot, allowPrivEsc, readOnlyRoot *model.Bool
	user, seccomp, apparmor                              *model.Str
	capAdd, capDrop                                      []model.Str
}

// securityContext reads a securityContext. A pod-level one only has the
// fields PodSecurityContext defines: privileged or capabilities written there
// are ignored by Kubernetes, so they are ignored here too.
func (f *file) securityContext(n *yaml.Node, podLevel bool) security {
	var s security
	if n == nil {
		return s
	}
	s.runAsNonRoot = f.boolFact(n, "runAsNonRoot")
	if k, v := lookup(n, "runAsUser"); v != nil {
		if uid, ok := integer(v); ok {
			s.user = &model.Str{Value: strconv.FormatInt(uid, 10), Loc: f.loc(k)}
		}
	}
	if k, v := lookup(n, "seccompProfile"); v != nil {
		if p := seccompProfile(v); p != "" {
			s.seccomp = &model.Str{Value: p, Loc: f.loc(k)}
		}
	}
	if k, v := lookup(n, "appArmorProfile"); str(get(v, "type")) != "" {
		s.apparmor = &model.Str{Value: strings.ToLower(str(get(v, "type"))), Loc: f.loc(k)}
	}
	if podLevel {
		return s
	}
	s.privileged = f.boolFact(n, "privileged")
	s.allowPrivEsc = f.boolFact(n, "allowPrivilegeEscalation")
	s.readOnlyRoot = f.boolFact(n, "readOnlyRootFilesystem")
	caps := get(n, "capabilities")
	s.capAdd = f.capabilities(get(caps, "add"))
	s.capDrop = f.capabilities(get(caps, "drop"))
	return s
}

// capabilities normalizes a capability list: upper case, no CAP_ prefix.
func (f *file) capabilities(n *yaml.Node) []model.Str {
	var out []model.Str
	for _, it := range items(n) {
		c := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(str(it))), "CAP_")
		if c != "" {
			out = append(out, model.Str{Value: c, Loc: f.loc(it)})
		}
	}
	return out
}

// seccompProfile normalizes a seccompProfile to the model's vocabulary.
func seccompProfile(n *yaml.Node) string {
	switch t := str(get(n, "type")); t {
	case "Unconfined":
		return "unconfined"
	case "RuntimeDefault":
		return "runtime/default"
	case "Localhost":
		return "localhost/" + str(get(n, "localhostProfile"))
	case "":
		return ""
	default:
		return strings.ToLower(t)
	}
}

// seccompAnnotation normalizes the pre-1.19 seccomp annotation values.
func seccompAnnotation(v string) string {
	switch v = strings.TrimSpace(v); v {
	case "docker/default", "runtime/default":
		return "runtime/default"
	default:
		return strings.ToLower(v)
	}
}

// annotation returns an annotation of the pod template as a fact.
func (f *file) annotation(p *pod, key string) *model.Str {
	k, v := lookup(p.annotations, key)
	if str(v) == "" {
		return nil
	}
	return &model.Str{Value: str(v), Loc: f.loc(k)}
}

// applySecurity sets the security facts of w from the pod's and the
// container's securityContext (the container's wins) and, below both, the
// legacy seccomp and AppArmor annotations.
func (f *file) applySecurity(p *pod, cname string, c security, w *model.Workload) {
	w.Privileged = c.privileged
	w.AllowPrivEsc = c.allowPrivEsc
	w.ReadOnlyRoot = c.readOnlyRoot
	w.CapAdd, w.CapDrop = c.capAdd, c.capDrop
	w.User = firstStr(c.user, p.sec.user)
	w.RunAsNonRoot = c.runAsNonRoot
	if w.RunAsNonRoot == nil {
		w.RunAsNonRoot = p.sec.runAsNonRoot
	}
	cAnn := f.annotation(p, "container.seccomp.security.alpha.kubernetes.io/"+cname)
	pAnn := f.annotation(p, "seccomp.security.alpha.kubernetes.io/pod")
	for _, a := range []*model.Str{cAnn, pAnn} {
		if a != nil {
			a.Value = seccompAnnotation(a.Value)
		}
	}
	w.Seccomp = firstStr(c.seccomp, cAnn, p.sec.seccomp, pAnn)
	aa := f.annotation(p, "container.apparmor.security.beta.kubernetes.io/"+cname)
	if a := firstStr(c.apparmor, aa, p.sec.apparmor); a != nil && strings.EqualFold(a.Value, "unconfined") {
		w.SecurityOpt = append(w.SecurityOpt, model.Str{Value: "apparmor=unconfined", Loc: a.Loc})
	}
}

func firstStr(ss ...*model.Str) *model.Str {
	for _, s := range ss {
		if s != nil {
			return s
		}
	}
	return nil
}
