package kubernetes

import (
	"encoding/base64"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// credential records a literal secret found at n.
func (f *file) credential(r model.SecretRef, where, context string, n *yaml.Node) {
	f.doc.Credentials = append(f.doc.Credentials, model.Credential{
		SecretRef: r, Where: where, Context: context,
		// Anything in a manifest is in the agent's checkout, and a
		// container's env and args are visible to the code it runs.
		ReadableByAgent: true,
		Loc:             f.loc(n),
	})
}

// env classifies a container's env and envFrom without keeping values.
func (f *file) env(c *yaml.Node, desc string, w *model.Workload) {
	for _, e := range items(get(c, "env")) {
		if ev, ok := f.envVar(e, desc); ok {
			w.Env = append(w.Env, ev)
		}
	}
	for _, e := range items(get(c, "envFrom")) {
		// envFrom names no variable: the entry stands for every key of the
		// Secret, named after it.
		if ref := get(e, "secretRef"); ref != nil {
			w.Env = append(w.Env, model.EnvVar{
				Name: "envFrom:secret/" + str(get(ref, "name")), FromSecret: true, Loc: f.loc(e),
			})
		}
	}
}

// envVar classifies one env entry (name, value or valueFrom) without its
// value, recording a literal secret as a credential; false for an entry
// without a name.
func (f *file) envVar(e *yaml.Node, desc string) (model.EnvVar, bool) {
	name := str(get(e, "name"))
	if name == "" {
		return model.EnvVar{}, false
	}
	ev := model.EnvVar{Name: name, SensitiveName: secrets.SensitiveName(name), Loc: f.loc(e)}
	if vf := get(e, "valueFrom"); vf != nil {
		ev.FromSecret = get(vf, "secretKeyRef") != nil
	} else if v := get(e, "value"); v != nil {
		ev.SensitiveName = secrets.SensitiveEnv(name, str(v), true)
		ev.Switch = agentcli.EnvSwitch(name, str(v))
		if r := secrets.DetectNamed(name, str(v)); r != nil {
			ev.Secret = r
			f.credential(*r, "env", desc+" env "+name, v)
		}
		ev.Weak = ev.Secret == nil && secrets.WeakSecret(name, str(v))
	}
	return ev, true
}

// ports keeps the container ports bound on the node (hostPort): only those
// expose the sandbox beyond the pod network.
func (f *file) ports(c *yaml.Node, w *model.Workload) {
	for _, p := range items(get(c, "ports")) {
		hostPort, ok := integer(get(p, "hostPort"))
		if !ok || hostPort == 0 {
			continue
		}
		proto := str(get(p, "protocol"))
		if proto == "" {
			proto = "TCP"
		}
		v := fmt.Sprintf("%d:%s/%s", hostPort, str(get(p, "containerPort")), proto)
		if ip := str(get(p, "hostIP")); ip != "" {
			v = ip + ":" + v
		}
		w.Ports = append(w.Ports, model.Str{Value: v, Loc: f.loc(p)})
	}
}

// commands records the container's command and args (redacted) and any
// literal secret passed in them.
func (f *file) commands(c *yaml.Node, desc string, w *model.Workload) {
	var parts []string
	var at *yaml.Node
	for _, key := range []string{"command", "args"} {
		k, v := lookup(c, key)
		if v == nil {
			continue
		}
		if at == nil {
			at = k
		}
		var words []string
		var nodes []*yaml.Node
		for _, it := range items(v) {
			words, nodes = append(words, str(it)), append(nodes, it)
		}
		hidden, found := secrets.HideArgs(words)
		for _, fd := range found {
			it := k
			for i := range hidden {
				if hidden[i] != words[i] && strings.Contains(hidden[i], fd.Fingerprint) {
					it = nodes[i]
					break
				}
			}
			f.credential(fd.SecretRef, "arg", desc+" "+key, it)
		}
		parts = append(parts, hidden...)
	}
	if at != nil {
		text := strings.Join(parts, " ")
		scripts, sudo := shell.ContainerScripts(text)
		w.Commands = append(w.Commands, model.Command{Phase: "entrypoint", Text: text, Scripts: scripts, SudoScripts: sudo, Loc: f.loc(at)})
	}
}

// secretObject records the literal credentials of a Secret manifest: a
// Secret committed to the repository is readable by the agent.
func (f *file) secretObject(o object) {
	desc := fmt.Sprintf("Kubernetes Secret %s/%s key ", o.namespace, o.name)
	for _, field := range []string{"data", "stringData"} {
		for _, p := range entries(get(o.node, field)) {
			v := str(p.val)
			if field == "data" {
				dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v))
				if err != nil {
					continue
				}
				v = string(dec)
			}
			if r := secrets.DetectNamed(p.key.Value, v); r != nil {
				f.credential(*r, "file", desc+p.key.Value, p.key)
			}
		}
	}
}
