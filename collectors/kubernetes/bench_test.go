package kubernetes

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// manifest writes n objects as one multi-document file, the shape of a
// cluster export (kubectl get -A -o yaml, split into documents): mostly
// Deployments, Services, ConfigMaps and ServiceAccounts, with a
// NetworkPolicy, a CiliumNetworkPolicy, a Calico policy and agent-sandbox
// objects every few hundred, spread over 50 namespaces. About 100 bytes an
// object, so 70,000 objects weigh about 7 MB.
func manifest(n int) []byte {
	var b strings.Builder
	for i := range n {
		ns := fmt.Sprintf("ns%d", i%50)
		switch {
		case i%500 == 7:
			fmt.Fprintf(&b, "---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np%d, namespace: %s}\nspec: {podSelector: {matchLabels: {app: a%d}}, policyTypes: [Egress], egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]}\n", i, ns, i-7)
		case i%500 == 9:
			fmt.Fprintf(&b, "---\napiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata: {name: cnp%d, namespace: %s}\nspec: {endpointSelector: {matchLabels: {app: a%d}}, egress: [{toFQDNs: [{matchName: api.example.com}]}]}\n", i, ns, i-9)
		case i%500 == 11:
			fmt.Fprintf(&b, "---\napiVersion: projectcalico.org/v3\nkind: NetworkPolicy\nmetadata: {name: cal%d, namespace: %s}\nspec: {selector: app == 'a%d', types: [Egress], egress: [{action: Allow, destination: {nets: [10.1.0.0/16]}}]}\n", i, ns, i-11)
		case i%500 == 13:
			fmt.Fprintf(&b, "---\napiVersion: agents.x-k8s.io/v1alpha1\nkind: Sandbox\nmetadata: {name: sb%d, namespace: %s}\nspec: {podTemplate: {spec: {containers: [{name: agent, image: agent:1}]}}}\n", i, ns)
		case i%4 == 0:
			fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d, namespace: %s}\nspec: {template: {metadata: {labels: {app: a%d}}, spec: {containers: [{name: c, image: img:%d}]}}}\n", i, ns, i, i)
		case i%4 == 1:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Service\nmetadata: {name: s%d, namespace: %s}\nspec: {selector: {app: a%d}, ports: [{port: 80}]}\n", i, ns, i-1)
		case i%4 == 2:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%d, namespace: %s}\ndata: {k: v}\n", i, ns)
		default:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa%d, namespace: %s}\nautomountServiceAccountToken: false\n", i, ns)
		}
	}
	return []byte(b.String())
}

// BenchmarkCollectManifest is Collect then Link on one large file: time and
// allocations must grow with the number of objects, not its square (compare
// the 10k and 70k results per object).
func BenchmarkCollectManifest(b *testing.B) {
	for _, n := range []int{10_000, 70_000} {
		data := manifest(n)
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				doc := &model.Document{}
				if err := (Collector{}).Collect(context.Background(), "export.yaml", data, doc); err != nil {
					b.Fatal(err)
				}
				Collector{}.Link(doc)
				if len(doc.Workloads) == 0 {
					b.Fatal("no workloads")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
			// The process's CPU time (GC included) per object: on a shared
			// machine wall time also counts other processes' turns.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(n), "cpu-ns/object")
		})
	}
}

// cpuTime is the user and system CPU time the process used so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
