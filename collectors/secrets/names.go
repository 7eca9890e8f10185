package secrets

import "strings"

// Words that make a name sensitive on their own (GITHUB_TOKEN, DB_PASS,
// apiKey, clientSecret, Authorization, GH_PAT).
var sensitiveWords = map[string]bool{
	"token": true, "tokens": true, "secret": true, "secrets": true, "password": true,
	"passwd": true, "pass": true, "passphrase": true, "pwd": true, "credential": true,
	"credentials": true, "creds": true, "auth": true, "authorization": true, "bearer": true,
	"cookie": true, "cookies": true, "pat": true, "jwt": true, "apikey": true, "privkey": true,
	"key": true,
}

// Suffixes that make a glued word sensitive (GITHUBTOKEN, MYAPIKEY, TS_AUTHKEY,
// dbpassword) without catching "tokenizer" or "keyboard".
var sensitiveSuffixes = []string{"token", "secret", "password", "passwd", "apikey", "accesskey", "secretkey", "privatekey", "credentials", "authkey"}

// A name ending in one of these describes a credential (its file, URL,
// length, the variable that holds it) rather than holding it.
var metaWords = map[string]bool{
	"id": true, "ids": true, "name": true, "names": true, "file": true, "files": true, "path": true,
	"dir": true, "url": true, "uri": true, "endpoint": true, "host": true, "hostname": true,
	"port": true, "type": true, "method": true, "mode": true, "enabled": true, "enable": true,
	"disabled": true, "disable": true, "length": true, "size": true, "ttl": true, "timeout": true,
	"expiry": true, "expires": true, "expiration": true, "env": true, "var": true, "variable": true,
	"header": true, "prefix": true, "format": true, "version": true, "count": true, "limit": true,
	"helper": true, "command": true, "cmd": true, "field": true, "label": true, "kind": true,
	"scope": true, "scopes": true, "location": true, "policy": true, "rotation": true,
	"provider": true, "issuer": true, "audience": true, "user": true, "username": true,
	"login": true, "email": true, "image": true, "region": true, "sha": true, "hash": true,
	"digest": true, "checksum": true, "fingerprint": true, "algorithm": true, "alg": true,
	"required": true, "domain": true, "server": true, "service": true, "source": true,
	"store": true, "vault": true, "manager": true, "ref": true, "arn": true,
	// Flags, modes, levels and lists of who may do something.
	"users": true, "usernames": true, "logins": true, "flag": true, "flags": true,
	"modes": true, "level": true, "strategy": true, "style": true,
	"allowed": true, "allowlist": true, "whitelist": true, "denylist": true, "blacklist": true,
	"dirs": true, "paths": true, "urls": true, "hosts": true, "ports": true,
	"max": true, "min": true, "interval": true, "delay": true, "retries": true, "algo": true,
}

// Words before "key" that make it an identifier, not a secret.
var keyQualifiers = map[string]bool{
	"primary": true, "foreign": true, "public": true, "pub": true, "cache": true, "partition": true,
	"sort": true, "idempotency": true, "object": true, "s3": true, "map": true, "hash": true,
	"routing": true, "row": true, "shard": true, "lookup": true, "unique": true, "index": true,
	"dedup": true, "group": true, "env": true, "hot": true, "sequence": true, "schema": true,
	"translation": true, "i18n": true, "storage": true, "bucket": true, "dict": true,
}

// SensitiveName reports whether a variable or key name suggests a credential:
// one of its words (split at _ - . and camelCase) is a credential word, and
// its last word does not make it metadata about one (TOKEN_URL, PASSWORD_FILE,
// api_key_env). PWD alone is the shell's working directory; an access key
// (AWS_ACCESS_KEY_ID) is always sensitive; a public key (JWT_PUBLIC_KEY,
// SSH_PUBKEY) never is, unless another word says secret or private.
func SensitiveName(name string) bool {
	ws := nameWords(name)
	if publicKey(ws) {
		return false
	}
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "access" && ws[i+1] == "key" {
			return true // AWS_ACCESS_KEY_ID names half of a key pair
		}
	}
	if len(ws) == 0 || metaWords[ws[len(ws)-1]] {
		return false
	}
	if workingDir(ws) {
		return false
	}
	for i, w := range ws {
		if w == "key" && i > 0 && keyQualifiers[ws[i-1]] {
			continue
		}
		if sensitiveWords[w] {
			return true
		}
		for _, s := range sensitiveSuffixes {
			if strings.HasSuffix(w, s) {
				return true
			}
		}
		if i+1 < len(ws) && (w == "private" || w == "access" || w == "secret" || w == "api") && ws[i+1] == "key" {
			return true
		}
	}
	return false
}

// workingDir: the name is the shell's working directory (PWD, OLDPWD) or
// one passed on under a qualifier (HOST_PWD, LOCAL_PWD: compose files hand
// the host's $(pwd) to a container this way), not a password.
func workingDir(ws []string) bool {
	switch n := len(ws); {
	case n == 1:
		return ws[0] == "pwd" || ws[0] == "oldpwd"
	case n == 2 && ws[1] == "pwd":
		switch ws[0] {
		case "host", "local", "current", "cur", "work", "working", "project", "old", "orig", "initial", "start":
			return true
		}
	}
	return false
}

// publicKey: the name ends in a public key (…_PUBLIC_KEY, …_PUB_KEY,
// …_PUBKEY, …_PUBLIC_KEY_PEM) and holds no word that makes it secret.
func publicKey(ws []string) bool {
	n := len(ws)
	if n > 0 && (ws[n-1] == "pem" || ws[n-1] == "b64" || ws[n-1] == "base64") {
		n--
	}
	ends := n >= 1 && (ws[n-1] == "pubkey" || ws[n-1] == "publickey") ||
		n >= 2 && ws[n-1] == "key" && (ws[n-2] == "public" || ws[n-2] == "pub")
	if !ends {
		return false
	}
	for _, w := range ws {
		switch w {
		case "private", "privkey", "secret", "secrets", "password", "passwd", "passphrase":
			return false
		}
	}
	return true
}

// settingWords end a name that says which thing to use, not how to get in
// (CUSTOM_MODEL, GCP_PROJECT, AZURE_SUBSCRIPTION, the cloud role an OIDC
// login assumes: AWS_ROLE_ARN, AWS_ROLE_TO_ASSUME).
var settingWords = map[string]bool{
	"model": true, "models": true, "project": true, "org": true, "organization": true, "account": true,
	"tenant": true, "subscription": true, "repo": true, "repository": true, "bucket": true, "zone": true,
	"cluster": true, "namespace": true, "channel": true, "team": true, "workspace": true,
	"role": true, "arn": true,
}

// identityWords end a name that says who a credential belongs to
// (PAT_USERNAME, DEPLOY_USER, BOT_EMAIL): the value is not the credential.
var identityWords = map[string]bool{"username": true, "user": true, "login": true, "email": true}

// DescribesSetting reports whether a secret's name says it holds a setting
// kept out of sight rather than a credential: its last word names metadata
// (…_URL, …_ID, …_PROVIDER, …_REGION) or a thing to use (…_MODEL,
// …_PROJECT), and no word makes it a credential (AWS_ACCESS_KEY_ID,
// CLIENT_SECRET_ID stay credentials). A webhook or DSN (SLACK_WEBHOOK,
// SENTRY_DSN), whose value is the credential, is not a setting.
func DescribesSetting(name string) bool {
	ws := nameWords(name)
	if n := len(ws); n > 2 && ws[n-2] == "to" && ws[n-1] == "assume" {
		ws = ws[:n-2] // AWS_ROLE_TO_ASSUME names a role, as AWS_ROLE_ARN does
	}
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	if identityWords[last] {
		return true // PAT_USERNAME names whose token, not the token
	}
	if !metaWords[last] && !settingWords[last] {
		return false
	}
	for i, w := range ws[:len(ws)-1] {
		if sensitiveWords[w] && w != "auth" || i+1 < len(ws) && w == "access" && ws[i+1] == "key" {
			return false
		}
		for _, suf := range sensitiveSuffixes {
			if strings.HasSuffix(w, suf) {
				return false
			}
		}
	}
	return true
}

// SensitiveEnv is SensitiveName for a variable with its value: hasValue
// says a literal was written (NAME=value), not a name alone (ARG NAME,
// an env var passed through). A sensitive name holds no credential when
// its literal is empty, a boolean, a small number or a path, URL or host:
// MAX_TOKENS=4096, USE_AUTH=true and DB_PASSWORD= are settings, not
// secrets. References (${GITHUB_TOKEN}) keep the name's verdict: they
// forward whatever the name says.
func SensitiveEnv(name, value string, hasValue bool) bool {
	if !SensitiveName(name) {
		return false
	}
	if !hasValue {
		return true
	}
	v := strings.TrimSpace(value)
	if def, ok := Default(v); ok {
		// ${NAME:-default} forwards NAME; a default that is a setting
		// (${REDIS_TLS_KEY:-/certs/redis.key}) says what NAME holds.
		return def == "" || !benignSetting(name, def)
	}
	if IsReference(v) {
		return true
	}
	return !benignSetting(name, v)
}

// benignSetting reports a value that cannot be a credential: empty, a
// boolean, a number of at most six digits, a path, URL or host name. Under
// a password's name only empty: 123456 is a (weak) password there.
func benignSetting(name, v string) bool {
	if v == "" {
		return true
	}
	if passwordName(name) {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "enabled", "disabled", "none", "null":
		return true
	}
	if allDigits(strings.TrimPrefix(v, "-")) && len(v) <= 6 {
		return true
	}
	return isURL(v) || isHostname(strings.ToLower(v)) || strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " ") && !anySegment(v, func(s string) bool { return len(s) >= 10 && mixed(s) }) ||
		strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/")
}

// weakParts are words default and guessable passwords are made of: the
// service's own name (postgres, minio, clickhouse), admin and root, and
// the words of "mysecret", "changeme", "password123".
var weakParts = []string{
	"postgres", "postgresql", "postgre", "pgsql", "mysql", "mariadb", "maria", "mongo", "mongodb", "redis",
	"rabbitmq", "rabbit", "minio", "clickhouse", "elastic", "kibana", "grafana", "keycloak", "airflow",
	"admin", "administrator", "root", "toor", "guest", "user", "users", "test", "testing", "demo", "example",
	"default", "change", "changeme", "change_me", "secret", "secrets", "password", "passwd", "pass", "pwd",
	"my", "your", "qwerty", "letmein", "welcome", "super", "key", "db", "database", "app", "dev", "local",
	"localhost", "vnc", "service", "api", "token", "jwt", "for", "the", "auth", "master", "server", "web",
	"sample", "dummy", "insecure", "temp", "tmp", "abc", "xyz", "hello", "world", "foo", "bar",
}

// WeakSecret reports a literal under a password's or secret's name that
// anyone could guess: a well-known default (postgres, minioadmin123,
// changeme), a word or two of those with digits, or anything short or
// not random-looking enough to be a secret. A reference forwards whatever
// the operator sets and is never weak, but the default of one
// (${POSTGRES_PASSWORD:-postgres}) is what runs when nobody sets it.
func WeakSecret(name, value string) bool {
	ws := nameWords(name)
	if len(ws) == 0 || metaWords[ws[len(ws)-1]] || workingDir(ws) {
		return false
	}
	secretish := passwordName(name)
	for _, w := range ws {
		secretish = secretish || w == "secret" || strings.HasSuffix(w, "secret")
	}
	if !secretish {
		return false
	}
	v := strings.TrimSpace(value)
	if def, ok := Default(v); ok {
		v = def
	} else if IsReference(v) || strings.Contains(v, "${") {
		return false
	}
	if v == "" || isURL(v) || strings.HasPrefix(v, "/") || v == "********" || strings.Trim(v, "*x") == "" ||
		strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`") {
		return false // nothing, a URL or path, a mask, a command's output
	}
	l := strings.ToLower(v)
	if placeholderWords[l] || lowDiversity(l) || len(v) < 8 || madeOfWeakParts(l) {
		return true
	}
	return !looksSecret(name, v)
}

// madeOfWeakParts reports whether s, its digits and punctuation dropped,
// is a run of weakParts ("minioadmin123", "postgrespass", "my-redis-secret").
func madeOfWeakParts(s string) bool {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			b.WriteByte(s[i])
		}
	}
	letters := b.String()
	if letters == "" {
		return true // digits and punctuation only: 123456, 1234-5678
	}
	// ok[i]: letters[:i] splits into parts.
	ok := make([]bool, len(letters)+1)
	ok[0] = true
	for i := 0; i < len(letters); i++ {
		if !ok[i] {
			continue
		}
		for _, p := range weakParts {
			if strings.HasPrefix(letters[i:], p) {
				ok[i+len(p)] = true
			}
		}
	}
	return ok[len(letters)]
}

// nameWords splits a name into lower-case words at non-alphanumerics and
// camelCase humps ("APIKey" → api, key; "x-api-key" → x, api, key).
func nameWords(name string) []string {
	var ws []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			ws = append(ws, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	isUp := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isLo := func(c byte) bool { return 'a' <= c && c <= 'z' }
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := isUp(c) || isLo(c) || '0' <= c && c <= '9'
		if !alnum {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := name[i-1]
		// fooBar → foo|Bar; APIKey → API|Key
		if isUp(c) && (isLo(prev) || isUp(prev) && i+1 < len(name) && isLo(name[i+1])) {
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return ws
}
