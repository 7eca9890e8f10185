package secrets

import (
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// TestStopWordsAsGitleaks: with the stop words lifted out of Translate (no
// trie), every allowlist still holds its words and answers as gitleaks'
// own ContainsStopWord does.
func TestStopWordsAsGitleaks(t *testing.T) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		t.Fatal(err)
	}
	theirs, err := vc.Translate()
	if err != nil {
		t.Fatal(err)
	}
	rules, global, stop, err := loadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string][]*config.Allowlist{"": global}
	for _, r := range rules {
		ours[r.id] = r.allow
	}
	pairs := 0
	check := func(id string, a, b []*config.Allowlist) {
		if len(a) != len(b) {
			t.Fatalf("%s: %d allowlists, gitleaks has %d", id, len(a), len(b))
		}
		for i := range a {
			if len(a[i].StopWords) != len(b[i].StopWords) {
				t.Errorf("%s[%d]: %d stop words, gitleaks has %d", id, i, len(a[i].StopWords), len(b[i].StopWords))
			}
			for _, w := range a[i].StopWords {
				if strings.HasPrefix(w, "\x00") {
					t.Errorf("%s[%d]: marker %q left in", id, i, w)
				}
			}
			probes := []string{"", "AKIAIOSFODNN7REALKEY", "x9f3Lq0pZ"}
			for j, w := range b[i].StopWords {
				if j%50 == 0 {
					probes = append(probes, "zz"+strings.ToUpper(w)+"9", w[:len(w)/2])
				}
			}
			for _, p := range probes {
				want, _ := b[i].ContainsStopWord(p)
				if got := stopWord(stop, a[i], p); got != want {
					t.Errorf("%s[%d] %q: stop word %v, gitleaks says %v", id, i, p, got, want)
				}
				pairs++
			}
		}
	}
	check("global", global, theirs.Allowlists)
	for id, r := range theirs.Rules {
		if a, ok := ours[id]; ok {
			check(id, a, r.Allowlists)
		}
	}
	if pairs < 50 {
		t.Fatalf("only %d probes compared", pairs)
	}
}
