package workflows

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// A secret reaches the agent's process only through its environment, the
// inputs its action passes on, or what an earlier step leaves on the runner
// ($GITHUB_ENV, files, the checkout's git config). An input of another step
// — the private key create-github-app-token turns into a short-lived token —
// does not; neither does anything a later step does.

// modelEnv are, per agent, the variables it reads its model credential
// from. Agents that call any provider (aider, opencode, OpenHands…) take
// them all.
var modelEnv = map[string][]string{
	// CLAUDE_ACCESS_TOKEN, _REFRESH_TOKEN and _EXPIRES_AT are a Claude
	// subscription's login, which forks of claude-code-action take as
	// inputs (claude_access_token…); CLAUDE_API_KEY is the name projects
	// give an Anthropic key.
	"claude-code": {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_FOUNDRY_API_KEY", "AWS_BEARER_TOKEN_BEDROCK",
		"CLAUDE_ACCESS_TOKEN", "CLAUDE_REFRESH_TOKEN", "CLAUDE_EXPIRES_AT", "CLAUDE_API_KEY"},
	"codex":   {"OPENAI_API_KEY", "CODEX_API_KEY", "AZURE_OPENAI_API_KEY"},
	"gemini":  {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_ACCESS_TOKEN"},
	"qwen":    {"DASHSCOPE_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"},
	"cursor":  {"CURSOR_API_KEY"},
	"copilot": {"COPILOT_GITHUB_TOKEN"},
	// OpenHands reads its model's key as LLM_API_KEY.
	"openhands": {"LLM_API_KEY", "OPENROUTER_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"},
	"*": {"OPENROUTER_API_KEY", "DEEPSEEK_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY", "XAI_API_KEY",
		"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "AZURE_OPENAI_API_KEY", "OPENCODE_API_KEY"},
}

// modelLogins are, per agent, the names workflows give the agent's own
// login file (Codex's ~/.codex/auth.json of a ChatGPT sign-in, Gemini CLI's
// oauth_creds.json, Claude Code's .credentials.json), which an earlier step
// writes where the agent reads it: the model credential, as an API key is.
// Names are compared without an encoding suffix (_B64, _BASE64, _JSON).
var modelLogins = map[string][]string{
	"claude-code": {"CLAUDE_CREDENTIALS", "CLAUDE_CODE_CREDENTIALS", "CLAUDE_CREDENTIALS_JSON"},
	"codex":       {"CODEX_AUTH", "CODEX_AUTH_JSON", "CODEX_AUTH_FILE"},
	"gemini":      {"GEMINI_OAUTH_CREDS", "GEMINI_OAUTH_CREDENTIALS", "GEMINI_CREDENTIALS"},
}

// modelEnvOf says whether name is a model credential variable of tool.
func modelEnvOf(tool, name string) bool {
	list, ok := modelEnv[tool]
	if !ok {
		list = modelEnv["*"]
	}
	if slices.Contains(list, name) {
		return true
	}
	base := name
	for _, suf := range []string{"_B64", "_BASE64", "_JSON"} {
		base = strings.TrimSuffix(base, suf)
	}
	return slices.Contains(modelLogins[tool], base) || slices.Contains(modelLogins[tool], name)
}

// cloudModelEnv are the cloud credentials Claude Code calls Bedrock or
// Vertex AI with when the step selects that provider.
var cloudModelEnv = map[string]bool{
	"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true,
	"GOOGLE_APPLICATION_CREDENTIALS": true,
}

// modelInputRE matches the inputs agent actions take the model key in
// (anthropic_api_key, claude_code_oauth_token, openai-api-key, gemini_api_key…).
var modelInputRE = regexp.MustCompile(`(?i)(^|[_-])(api[_-]?key|oauth[_-]?token)$`)

// persisting are actions that leave their secret inputs on the runner for
// every later step: in $GITHUB_ENV or in a file under the home directory.
var persisting = map[string]string{
	"aws-actions/configure-aws-credentials": "github-env", // exports AWS_* to later steps
	"hashicorp/vault-action":                "github-env", // exports the secrets it reads
	"1password/load-secrets-action":         "github-env",
	"docker/login-action":                   "file", // ~/.docker/config.json
	"google-github-actions/auth":            "file", // a credentials file, named in GOOGLE_APPLICATION_CREDENTIALS
	"azure/login":                           "file", // the az CLI profile
	"azure/docker-login":                    "file",
	"webfactory/ssh-agent":                  "file", // a loaded ssh-agent, SSH_AUTH_SOCK exported
	"shimataro/ssh-key-action":              "file", // ~/.ssh
	"crazy-max/ghaction-import-gpg":         "file", // the GPG keyring
}

// stepFacts is what one step leaves for the steps after it.
type stepFacts struct {
	id      string
	leaves  []model.AgentSecret // secrets in $GITHUB_ENV or on disk
	outputs []model.AgentSecret // secrets written to $GITHUB_OUTPUT
	app     *model.AppToken     // the step mints a GitHub App token
}

// appTokenActions mint a GitHub App installation token into the step's
// output "token".
var appTokenActions = map[string]bool{
	"actions/create-github-app-token": true,
	"tibdex/github-app-token":         true,
}

var (
	// permissionJSONRE finds "scope": "write" in tibdex/github-app-token's
	// permissions input.
	permissionJSONRE = regexp.MustCompile(`"([a-z_-]+)"\s*:\s*"write"`)
	// appTokenRefRE finds steps.ID.outputs.token inside an expression.
	appTokenRefRE = regexp.MustCompile(`\bsteps\.([A-Za-z0-9_-]+)\.outputs\.token\b`)
)

// appToken reads the permissions a token-minting step asks for.
func appToken(id string, with *yaml.Node) *model.AppToken {
	t := &model.AppToken{Step: id, Write: []string{}}
	for _, kv := range pairs(with) {
		name, v := kv[0].Value, strings.TrimSpace(scalar(kv[1]))
		switch {
		case strings.HasPrefix(name, "permission-"):
			t.Scoped = true
			if v == "write" || v == "admin" {
				t.Write = append(t.Write, strings.TrimPrefix(name, "permission-"))
			}
		case name == "permissions":
			t.Scoped = true
			for _, m := range permissionJSONRE.FindAllStringSubmatch(v, -1) {
				t.Write = append(t.Write, m[1])
			}
		}
	}
	sort.Strings(t.Write)
	return t
}

// appTokenRefs lists the minted app tokens an expression-bearing value
// names, of the steps before the agent's.
func appTokenRefs(text string, minted map[string]*model.AppToken) []*model.AppToken {
	if len(minted) == 0 || !strings.Contains(text, "${{") {
		return nil
	}
	var out []*model.AppToken
	for _, e := range exprRE.FindAllStringSubmatch(text, -1) {
		for _, m := range appTokenRefRE.FindAllStringSubmatch(e[1], -1) {
			if t := minted[m[1]]; t != nil {
				out = append(out, t)
			}
		}
	}
	return out
}

// envSecrets maps each variable of an env: block to the secrets its value
// names, with the variable's line.
type envSecret struct {
	name    string
	secrets []string
	line    int
}

func (c *collector) envSecrets(env *yaml.Node) []envSecret {
	var out []envSecret
	for _, kv := range pairs(env) {
		if names := passedSecretNames(scalar(kv[1])); len(names) > 0 {
			out = append(out, envSecret{name: kv[0].Value, secrets: names, line: kv[0].Line})
		}
	}
	return out
}

var (
	// redirectRE finds output redirections and tee; the target is checked
	// separately so $GITHUB_OUTPUT, the step summary and /dev/null stay out.
	redirectRE = regexp.MustCompile(`(?:^|[^0-9&<>])>>?\s*("?[^\s;&|]+)|\btee\s+(?:-a\s+)?("?[^\s;&|]+)`)
	// loginRE finds commands that store a credential for later commands.
	loginRE = regexp.MustCompile(`\b(docker\s+login|podman\s+login|helm\s+registry\s+login|gh\s+auth\s+login|npm\s+(config\s+set|login)|yarn\s+config\s+set|git\s+config|aws\s+configure|gcloud\s+auth|az\s+login|ssh-add)\b`)
)

// runFacts reads what a run: step leaves behind: a secret (named in the
// script or through the step's env) on a line that writes $GITHUB_ENV, a
// file or $GITHUB_OUTPUT, or that logs a tool in.
func (c *collector) runFacts(run *yaml.Node, env []envSecret, f *stepFacts) {
	for i, line := range strings.Split(run.Value, "\n") {
		refs := passedSecretNames(line)
		for _, e := range env {
			if shell.Mentions(line, e.name) {
				refs = append(refs, e.secrets...)
			}
		}
		if len(refs) == 0 {
			continue
		}
		var via string
		switch {
		case strings.Contains(line, "GITHUB_ENV"):
			via = "github-env"
		case strings.Contains(line, "GITHUB_OUTPUT"):
			via = "step-output"
		case loginRE.MatchString(line) || writesFile(line):
			via = "file"
		default:
			continue
		}
		loc := c.loc(lineOf(run, i))
		for _, name := range refs {
			s := model.AgentSecret{Name: name, Via: via, Loc: loc}
			if via == "step-output" {
				f.outputs = append(f.outputs, s)
			} else {
				f.leaves = append(f.leaves, s)
			}
		}
	}
}

func isNameChar(b byte) bool {
	return b == '_' || 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9'
}

// writesFile reports a redirection or tee to a file other than the runner's
// step files and /dev/null.
func writesFile(line string) bool {
	for _, m := range redirectRE.FindAllStringSubmatch(line, -1) {
		target := strings.Trim(m[1]+m[2], `"'`)
		switch {
		case target == "", strings.HasPrefix(target, "/dev/"), strings.Contains(target, "GITHUB_OUTPUT"),
			strings.Contains(target, "GITHUB_STEP_SUMMARY"), strings.Contains(target, "GITHUB_PATH"):
		default:
			return true
		}
	}
	return false
}

// usesFacts: a persisting action leaves every secret its inputs name.
func (c *collector) usesFacts(name string, with *yaml.Node, f *stepFacts) {
	via, ok := persisting[name]
	if !ok {
		return
	}
	for _, kv := range pairs(with) {
		for _, s := range passedSecretNames(scalar(kv[1])) {
			f.leaves = append(f.leaves, model.AgentSecret{Name: s, Via: via, To: kv[0].Value, Loc: c.loc(kv[1].Line)})
		}
	}
}

// reachInput is one way a secret may get to the agent step, before dedup.
type reachInput struct {
	step     *yaml.Node // the agent step (nil: a reusable workflow job or Copilot)
	stepIdx  int        // its index among the job's steps; len(steps) for Copilot
	jobEnv   *yaml.Node // nil when the platform ignores it (Copilot)
	wfEnv    *yaml.Node
	facts    []stepFacts
	checkout []checkoutAt
	bedrock  bool // the agent calls its model through Bedrock or Vertex
}

// checkoutAt is a checkout with the index of its step.
type checkoutAt struct {
	idx int
	co  model.Checkout
}

// reach lists the secrets that reach an agent step's process, each once,
// by the most direct way it gets there.
func (c *collector) reach(st *model.AgentStep, in reachInput) []model.AgentSecret {
	var out []model.AgentSecret
	seen := map[string]bool{}
	add := func(s model.AgentSecret) {
		if seen[s.Name] {
			return
		}
		seen[s.Name] = true
		s.ModelKey = isModelKey(st.Tool, s, in.bedrock)
		s.Setting = secrets.DescribesSetting(s.Name)
		out = append(out, s)
	}
	fromEnv := func(env *yaml.Node, via string) {
		for _, e := range c.envSecrets(env) {
			for _, name := range e.secrets {
				add(model.AgentSecret{Name: name, Via: via, To: e.name, Loc: c.loc(e.line)})
			}
		}
	}
	// Tokens minted by earlier steps of the job, by step id; the agent
	// step's own env, inputs and script may name them (a job's env cannot:
	// it is set before any step runs).
	minted := map[string]*model.AppToken{}
	for i := 0; i < in.stepIdx && i < len(in.facts); i++ {
		if f := in.facts[i]; f.app != nil && f.id != "" {
			minted[f.id] = f.app
		}
	}
	addApps := func(text, via, to string, line int) {
		for _, t := range appTokenRefs(text, minted) {
			add(model.AgentSecret{Name: "steps." + t.Step + ".outputs.token", Via: via, To: to, App: t, Loc: c.loc(line)})
		}
	}
	var with, run *yaml.Node
	if in.step != nil {
		env := get(in.step, "env")
		fromEnv(env, "step-env")
		for _, kv := range pairs(env) {
			addApps(scalar(kv[1]), "step-env", kv[0].Value, kv[0].Line)
		}
		with, run = get(in.step, "with"), get(in.step, "run")
	}
	for _, kv := range pairs(with) {
		if codexKeyProxied(st, kv[0].Value) {
			continue
		}
		for _, name := range passedSecretNames(scalar(kv[1])) {
			add(model.AgentSecret{Name: name, Via: "input", To: kv[0].Value, Loc: c.loc(kv[1].Line)})
		}
		addApps(scalar(kv[1]), "input", kv[0].Value, kv[1].Line)
	}
	if run != nil && run.Kind == yaml.ScalarNode {
		for i, line := range strings.Split(run.Value, "\n") {
			for _, name := range passedSecretNames(line) {
				add(model.AgentSecret{Name: name, Via: "run", Loc: c.loc(lineOf(run, i))})
			}
			addApps(line, "run", "", lineOf(run, i))
		}
	}
	fromEnv(in.jobEnv, "job-env")
	fromEnv(in.wfEnv, "workflow-env")
	reads := stepText(in.step)
	for i := 0; i < in.stepIdx && i < len(in.facts); i++ {
		f := in.facts[i]
		for _, s := range f.leaves {
			add(s)
		}
		if f.id != "" && strings.Contains(reads, "steps."+f.id+".outputs") {
			for _, s := range f.outputs {
				add(s)
			}
		}
	}
	for _, co := range in.checkout {
		if co.idx < in.stepIdx && co.co.PersistCredentials && strings.HasPrefix(co.co.Token, "secrets.") {
			add(model.AgentSecret{Name: strings.TrimPrefix(co.co.Token, "secrets."), Via: "checkout", To: "token", Loc: co.co.Loc})
		}
	}
	return out
}

// stepText is every scalar of the step, to find the outputs it reads.
func stepText(step *yaml.Node) string {
	if step == nil {
		return ""
	}
	var b strings.Builder
	(&scanner{}).scalars(step, func(n *yaml.Node) { b.WriteString(n.Value + "\n") })
	return b.String()
}

// codexKeyProxied: openai/codex-action hands openai-api-key to a proxy that
// Codex cannot read unless the safety strategy leaves it sudo (read-only,
// unsafe); docs/security.md of the action.
func codexKeyProxied(st *model.AgentStep, input string) bool {
	if !strings.HasPrefix(actionName(st.Uses), "openai/codex-action") || input != "openai-api-key" && input != "openai_api_key" {
		return false
	}
	strategy := "drop-sudo"
	if st.SafetyStrategy != nil {
		strategy = st.SafetyStrategy.Value
	}
	return strategy == "drop-sudo" || strategy == "unprivileged-user"
}

// isModelKey: the secret arrives as the agent's model credential — by the
// variable or input it is bound to, else (a file, $GITHUB_ENV written by a
// script) by its own name.
func isModelKey(tool string, s model.AgentSecret, cloud bool) bool {
	name := s.Name
	switch s.Via {
	case "step-env", "job-env", "workflow-env", "input":
		name = s.To
	}
	up := strings.ToUpper(name)
	switch {
	case modelEnvOf(tool, up), cloud && cloudModelEnv[up]:
		return true
	case s.Via == "input" && modelInputRE.MatchString(s.To) && !strings.Contains(strings.ToLower(s.To), "github"):
		return true
	case s.Via == "input" && modelEnvOf(tool, strings.ToUpper(s.Name)) && strings.Contains(strings.ToLower(s.To), "key"):
		// The action takes the key by another input name (aider's
		// api_key_env_value: ${{ secrets.OPENROUTER_API_KEY }}).
		return true
	case cloud && (s.To == "aws-access-key-id" || s.To == "aws-secret-access-key" || s.To == "credentials_json"):
		return true
	}
	return false
}

// usesCloudModel reports a Claude step that calls Bedrock or Vertex AI: the
// cloud credentials it gets are its model credential.
func usesCloudModel(step *yaml.Node, envs ...*yaml.Node) bool {
	for _, in := range []string{"use_bedrock", "use_vertex"} {
		if strings.EqualFold(strings.TrimSpace(scalar(get(get(step, "with"), in))), "true") {
			return true
		}
	}
	for _, env := range append([]*yaml.Node{get(step, "env")}, envs...) {
		for _, k := range []string{"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"} {
			if v := strings.TrimSpace(scalar(get(env, k))); v != "" && v != "0" && v != "false" {
				return true
			}
		}
	}
	return false
}

// reusableSecrets are the secrets a job that calls a reusable agent
// workflow hands it: secrets: inherit passes every one.
func (c *collector) reusableSecrets(body *yaml.Node) []model.AgentSecret {
	k, v := getKV(body, "secrets")
	if v == nil {
		return nil
	}
	if v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) == "inherit" {
		return []model.AgentSecret{{Name: "*", Via: "inherit", Loc: c.loc(k.Line)}}
	}
	var out []model.AgentSecret
	for _, kv := range pairs(v) {
		for _, name := range passedSecretNames(scalar(kv[1])) {
			out = append(out, model.AgentSecret{Name: name, Via: "input", To: kv[0].Value, Loc: c.loc(kv[1].Line)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
