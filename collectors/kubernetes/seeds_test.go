package kubernetes

// fuzzSeeds are manifests shaped like an agent's workload: a Deployment
// with a pod security context, a NetworkPolicy selecting it, a
// ServiceAccount and RuntimeClass in the same file, and a Job.
var fuzzSeeds = []string{
	rbacObjects + "---\n" + rbacPods,
	`apiVersion: v1
kind: ServiceAccount
metadata: {name: agent, namespace: agents}
automountServiceAccountToken: false
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coding-agent
  namespace: agents
  labels: {app: coding-agent}
spec:
  replicas: 1
  selector: {matchLabels: {app: coding-agent}}
  template:
    metadata: {labels: {app: coding-agent, role: agent}}
    spec:
      serviceAccountName: agent
      runtimeClassName: gvisor
      securityContext: {runAsNonRoot: true, runAsUser: 1000, seccompProfile: {type: RuntimeDefault}}
      containers:
        - name: agent
          image: ghcr.io/example/agent@sha256:` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `
          env:
            - {name: ANTHROPIC_API_KEY, valueFrom: {secretKeyRef: {name: agent-keys, key: anthropic}}}
            - {name: LOG_LEVEL, value: info}
          securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
          volumeMounts: [{name: work, mountPath: /workspace}]
      volumes: [{name: work, emptyDir: {sizeLimit: 2Gi}}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: agent-egress, namespace: agents}
spec:
  podSelector: {matchLabels: {role: agent}}
  policyTypes: [Egress]
  egress:
    - to: [{namespaceSelector: {matchLabels: {name: proxy}}}]
      ports: [{port: 3128, protocol: TCP}]
`,
	`apiVersion: batch/v1
kind: Job
metadata: {name: nightly-agent}
spec:
  template:
    spec:
      hostNetwork: true
      hostPID: true
      restartPolicy: Never
      containers:
        - name: run
          image: example/agent:latest
          securityContext: {privileged: true, capabilities: {add: [SYS_ADMIN]}}
          volumeMounts: [{name: sock, mountPath: /var/run/docker.sock}]
      volumes: [{name: sock, hostPath: {path: /var/run/docker.sock, type: Socket}}]
`,
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [null, 1, {name: [x], image: {}}]\n  volumes: {a: 1}\n",
}
