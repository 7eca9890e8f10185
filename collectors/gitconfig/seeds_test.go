package gitconfig

// fuzzSeeds are git config files shaped like real ones: a checkout's
// repository config with an extraheader, credential helpers, url rewrites
// with userinfo, includes, and the quoting and continuation rules.
var fuzzSeeds = []string{
	`[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	logallrefupdates = true
[remote "origin"]
	url = https://github.com/example/agent-sandbox.git
	fetch = +refs/heads/*:refs/remotes/origin/*
[branch "main"]
	remote = origin
	merge = refs/heads/main
[http "https://github.com/"]
	extraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX0FBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=
[includeIf "gitdir:~/work/"]
	path = ~/.gitconfig-work
`,
	`# ~/.gitconfig
[user]
	name = Dev Example
	email = dev@example.com
[credential]
	helper = store --file ~/.git-credentials
	helper = "!f() { echo username=x-access-token; echo password=$GH_TOKEN; }; f"
[credential "https://gitlab.example.com"]
	helper = cache --timeout=3600
[url "https://oauth2:glpat-AbCdEfGhIjKlMnOpQrSt@gitlab.example.com/"]
	insteadOf = https://gitlab.example.com/
[include]
	path = .gitconfig.local
[alias]
	lg = "log --graph --pretty=format:'%h %s' \
		--abbrev-commit"
`,
	"[a]\n\tb = \"unterminated\n[c \"d\"\n",
	"[core]\nsshCommand = ssh -i ~/.ssh/agent_key -o IdentitiesOnly=yes\n[protocol \"file\"]\n\tallow = always\n",
}
