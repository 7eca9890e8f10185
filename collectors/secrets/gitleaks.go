package secrets

import (
	"fmt"
	"strings"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// loadGitleaks turns gitleaks' default rule set into our rules, the way
// gitleaks' own NewDetectorDefaultConfig does (viper → ViperConfig →
// Translate), but on a private viper instance: the global one is process
// state that the CLI may use, and viper is not safe for concurrent use.
//
// Reading the TOML costs about 4 ms either through viper or BurntSushi/toml
// (measured with BenchmarkInit); Translate, which compiles some 500 regular
// expressions, is the bulk (~20 ms), so there is nothing to win by bypassing
// viper. Rules that only make sense with a file path (Path set), that never
// report alone (SkipReport) or that are composites of other rules (Required)
// are left out: Scan sees values, not files.
func loadGitleaks() ([]*rule, []*config.Allowlist, map[*config.Allowlist]*words, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		return nil, nil, nil, fmt.Errorf("read gitleaks config: %w", err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return nil, nil, nil, fmt.Errorf("decode gitleaks config: %w", err)
	}
	lifted := liftStopWords(&vc)
	cfg, err := vc.Translate()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("translate gitleaks config: %w", err)
	}
	stop := map[*config.Allowlist]*words{}
	restore := func(lists []*config.Allowlist) {
		for _, a := range lists {
			if len(a.StopWords) == 1 {
				if list, ok := lifted[a.StopWords[0]]; ok {
					a.StopWords = list
					stop[a] = newWords(list)
				}
			}
		}
	}
	restore(cfg.Allowlists)
	for _, r := range cfg.Rules {
		restore(r.Allowlists)
	}
	var rules []*rule
	for _, gr := range cfg.GetOrderedRules() {
		if gr.Regex == nil || gr.Path != nil || gr.SkipReport || len(gr.RequiredRules) > 0 {
			continue
		}
		tier := tierVendor
		if strings.Contains(gr.RuleID, "generic") {
			tier = tierGeneric
		}
		rules = append(rules, &rule{
			id:       gr.RuleID,
			lifetime: gitleaksLifetime(gr.RuleID),
			tier:     tier,
			re:       gr.Regex, // an alias of the standard regexp.Regexp unless built with gore2regex
			group:    gr.SecretGroup,
			entropy:  gr.Entropy,
			keywords: gr.Keywords,
			allow:    gr.Allowlists,
			gitleaks: true,
		})
	}
	return rules, cfg.Allowlists, stop, nil
}

// Lifetimes of gitleaks kinds, where the provider documents one: "long"
// means the token stays valid until someone revokes it (or for months),
// "short" that it expires within hours, "session" that it lives as long as
// a login session. Every other kind is "unknown".
var gitleaksLifetimes = map[string]string{
	"github-pat":                                  "long",
	"github-fine-grained-pat":                     "long",
	"github-oauth":                                "long",
	"github-refresh-token":                        "long",
	"github-app-token":                            "short",
	"gitlab-pat":                                  "long",
	"gitlab-pat-routable":                         "long",
	"gitlab-deploy-token":                         "long",
	"gitlab-runner-authentication-token":          "long",
	"gitlab-runner-authentication-token-routable": "long",
	"gitlab-cicd-job-token":                       "short",
	"gitlab-session-cookie":                       "session",
	"aws-access-token":                            "unknown",
	"aws-amazon-bedrock-api-key-long-lived":       "long",
	"aws-amazon-bedrock-api-key-short-lived":      "short",
	"openai-api-key":                              "long",
	"anthropic-api-key":                           "long",
	"anthropic-admin-api-key":                     "long",
	"npm-access-token":                            "long",
	"pypi-upload-token":                           "long",
	"gcp-api-key":                                 "long",
	"private-key":                                 "long",
	"age-secret-key":                              "long",
	"slack-bot-token":                             "long",
	"slack-user-token":                            "long",
	"slack-app-token":                             "long",
	"slack-legacy-token":                          "long",
	"slack-legacy-bot-token":                      "long",
	"slack-legacy-workspace-token":                "long",
	"slack-webhook-url":                           "long",
	"microsoft-teams-webhook":                     "long",
	"huggingface-access-token":                    "long",
	"huggingface-organization-api-token":          "long",
	"stripe-access-token":                         "long",
	"sendgrid-api-token":                          "long",
	"twilio-api-key":                              "long",
	"telegram-bot-api-token":                      "long",
	"discord-api-token":                           "long",
	"digitalocean-pat":                            "long",
	"dropbox-long-lived-api-token":                "long",
	"dropbox-short-lived-api-token":               "short",
	"rubygems-api-token":                          "long",
	"pulumi-api-token":                            "long",
	"doppler-api-token":                           "long",
	"databricks-api-token":                        "long",
	"hashicorp-tf-api-token":                      "long",
	"heroku-api-key":                              "long",
	"heroku-api-key-v2":                           "long",
	"1password-service-account-token":             "long",
	"1password-secret-key":                        "long",
	"linear-api-key":                              "long",
	"notion-api-token":                            "long",
	"postman-api-token":                           "long",
	"grafana-service-account-token":               "long",
	"grafana-cloud-api-token":                     "long",
	"sentry-user-token":                           "long",
	"sentry-org-token":                            "long",
	"artifactory-api-key":                         "long",
	"artifactory-reference-token":                 "long",
	"jwt":                                         "unknown",
}

func gitleaksLifetime(id string) string {
	if l, ok := gitleaksLifetimes[id]; ok {
		return l
	}
	return "unknown"
}

// liftStopWords takes the stop words out of the config before Translate,
// leaving one marker word per allowlist, and returns them (lower-cased, as
// gitleaks keeps them) by marker. Translate would build an Aho-Corasick trie
// of them with a 256-entry row per node: 9 MB of heap, held for the whole
// scan, for the ~1,500 stop words of generic-api-key. loadGitleaks builds
// its own compact one (words) instead, a few hundred KB.
func liftStopWords(vc *config.ViperConfig) map[string][]string {
	lifted := map[string][]string{}
	lift := func(words *[]string) {
		if len(*words) == 0 {
			return
		}
		marker := fmt.Sprintf("\x00stop-words-%d\x00", len(lifted))
		seen := map[string]bool{}
		var low []string
		for _, w := range *words {
			if w = strings.ToLower(w); !seen[w] {
				seen[w] = true
				low = append(low, w)
			}
		}
		lifted[marker] = low
		*words = []string{marker}
	}
	for i := range vc.Rules {
		if a := vc.Rules[i].AllowList; a != nil {
			lift(&a.StopWords)
		}
		for _, a := range vc.Rules[i].Allowlists {
			lift(&a.StopWords)
		}
	}
	if vc.AllowList != nil {
		lift(&vc.AllowList.StopWords)
	}
	for _, a := range vc.Allowlists {
		lift(&a.StopWords)
	}
	return lifted
}

// stopWord reports whether secret holds one of the list's stop words, as
// gitleaks' Allowlist.ContainsStopWord does (case-insensitively), in one
// pass over the secret. Never call ContainsStopWord on these lists: its
// trie was built from the marker word alone and matches nothing.
func stopWord(stop map[*config.Allowlist]*words, a *config.Allowlist, secret string) bool {
	w := stop[a]
	return w != nil && secret != "" && w.any(strings.ToLower(secret))
}

// allowed applies gitleaks allowlists the way its detector does for a
// fragment without path or commit: OR lists match on a regex or a stopword;
// AND lists need every check they declare, and a path or commit check can
// never pass here. A line list's regexes run once per line (see lines).
func (e *engine) allowed(lists []*config.Allowlist, secret, match string, loc []int, ls *lines) bool {
	for _, a := range lists {
		and := a.MatchCondition == config.AllowlistMatchAnd
		if and && (len(a.Commits) > 0 || len(a.Paths) > 0) {
			continue
		}
		regexOK := func() bool {
			switch a.RegexTarget {
			case "match":
				return a.RegexAllowed(match)
			case "line":
				line := ls.around(loc[0], loc[1])
				return ls.verdict(a, func() bool { return a.RegexAllowed(line) })
			}
			return a.RegexAllowed(secret)
		}
		if and {
			ok := true
			if len(a.Regexes) > 0 {
				ok = regexOK()
			}
			if ok && len(a.StopWords) > 0 {
				ok = stopWord(e.stop, a, secret)
			}
			if ok && (len(a.Regexes) > 0 || len(a.StopWords) > 0) {
				return true
			}
			continue
		}
		if regexOK() || stopWord(e.stop, a, secret) {
			return true
		}
	}
	return false
}
