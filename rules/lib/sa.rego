# Package lib.sa holds the helpers every rule shares. finding builds a finding
# from the rule's own METADATA, so severity, property and remediation live in
# one place: the rule file.
package lib.sa

# finding(chain, loc, msg): chain is rego.metadata.chain() called in the rule
# body, loc any fact with file and line, msg the message (no secret values, no
# line numbers: the message is part of the finding's fingerprint).
finding(chain, loc, msg) := {
	"rule_id": md.custom.id,
	"title": md.title,
	"property": md.custom.property,
	"severity": md.custom.severity,
	"remediation": md.custom.remediation,
	"category": object.get(md.custom, "category", "posture"),
	"message": msg,
	"file": object.get(loc, "file", ""),
	"line": object.get(loc, "line", 0),
} if {
	md := _metadata(chain)
}

# The rule's own annotations: the entry of the chain with a custom id. A
# function of the chain alone, so evaluated once per rule, however many
# findings it has.
_metadata(chain) := [a | some e in chain; a := e.annotations; a.custom.id][0]

# param(name, default) reads a policy parameter from the policy file.
param(name, def) := object.get(object.get(input, "params", {}), name, def)

# is_root reports whether a user value means root.
is_root(u) if u in {"root", "0", "0:0", "root:root"}

# note(chain, loc, msg) is a finding about a workload that is not the
# agent's sandbox (a platform service, or one beside a known agent): it is
# shown at severity info with category "platform", and never changes a
# property's status, score or count.
note(chain, loc, msg) := object.union(finding(chain, loc, msg), {"severity": "info", "category": "platform"})

# model_key(name): the variable holds an agent's model credential (any
# agent's: a container does not say which agent reads it). The workflow
# collector keeps the same names per agent (collectors/workflows/reach.go).
model_key(name) if upper(name) in {
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_FOUNDRY_API_KEY",
	"AWS_BEARER_TOKEN_BEDROCK", "OPENAI_API_KEY", "CODEX_API_KEY", "AZURE_OPENAI_API_KEY",
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_ACCESS_TOKEN", "DASHSCOPE_API_KEY",
	"CURSOR_API_KEY", "COPILOT_GITHUB_TOKEN", "OPENROUTER_API_KEY", "DEEPSEEK_API_KEY",
	"MISTRAL_API_KEY", "GROQ_API_KEY", "XAI_API_KEY", "OPENCODE_API_KEY",
	# a Codex image's login token, NVIDIA NIM's model key
	"CODEX_ACCESS_TOKEN", "NVIDIA_API_KEY",
	# the names projects give an Anthropic key, OpenHands' model key
	"CLAUDE_API_KEY", "LLM_API_KEY",
}

# Another model provider's API key (an app that lets the user pick the
# model: Alibaba's Qwen, Moonshot's Kimi, IBM watsonx, Together…).
model_key(name) if regex.match(`^(ALIBABA|MOONSHOT|KIMI|IBM|WATSONX|ZHIPU|ZHIPUAI|GLM|BAICHUAN|MINIMAX|SILICONFLOW|TOGETHER|TOGETHERAI|FIREWORKS|PERPLEXITY|COHERE|REPLICATE|ANYSCALE|CEREBRAS|SAMBANOVA|NOVITA|UNBOUND|VOLCENGINE|ARK|HUNYUAN|QIANFAN|AI21|VOYAGE|JINA|NEBIUS|GROK|AZURE_AI|VERTEX|BEDROCK|LITELLM)_API_KEY$`, upper(name))

# inbound_credential(name): the variable holds the password of a server
# that runs in the sandbox itself and guards the way in to it (ttyd's web
# terminal, a VNC desktop, Jupyter): the agent reading it reaches nothing
# beyond the sandbox it is already in.
inbound_credential(name) if upper(name) in {
	"TTYD_PASS", "TTYD_PASSWORD", "TTYD_CREDENTIAL", "VNC_PASSWORD", "VNC_PW", "VNC_PASSWD",
	"JUPYTER_TOKEN", "JUPYTER_PASSWORD",
}

# app_own_secret(name): the variable holds the key a web application in
# the sandbox signs its own sessions or tokens with, or encrypts its own
# data with (JWT_SECRET, SESSION_SECRET, NEXTAUTH_SECRET, SECRET_KEY_BASE):
# it opens that application, which runs there, and no account elsewhere.
# A vendor's name in front (SUPABASE_JWT_SECRET) is that vendor's key.
app_own_secret(name) if upper(name) in {
	"JWT_SECRET", "JWT_SECRET_KEY", "JWT_SIGNING_KEY", "JWT_KEY", "SESSION_SECRET", "SESSION_KEY",
	"SESSION_SECRET_KEY", "COOKIE_SECRET", "NEXTAUTH_SECRET", "AUTH_SECRET", "BETTER_AUTH_SECRET",
	"CSRF_SECRET", "SECRET_KEY", "SECRET_KEY_BASE", "APP_KEY", "APP_SECRET", "DJANGO_SECRET_KEY",
	"FLASK_SECRET_KEY", "ENCRYPTION_KEY",
}
