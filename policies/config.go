package policies

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/roles"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// ConfigFileName is looked up at the scanned root when --config is not given.
const ConfigFileName = ".sandbox-audit.yaml"

// Config is the policy file, version 1.
type Config struct {
	Version  int                   `yaml:"version"`
	Exclude  []string              `yaml:"exclude"`
	FailOn   string                `yaml:"fail_on"`
	Require  []string              `yaml:"require"`
	MinScore map[string]int        `yaml:"min_score"`
	Rules    map[string]RuleConfig `yaml:"rules"`
	Params   map[string]any        `yaml:"params"`
	Probes   Probes                `yaml:"probes"`
	Waivers  []Waiver              `yaml:"waivers"`
	// Sandboxes names the agent's sandboxes (and platform workloads)
	// among the scanned workloads; see collectors/roles.
	Sandboxes []roles.Selector `yaml:"sandboxes"`
	// Strict makes the run exit 2 when anything could not be audited
	// (errors[] is not empty), as --strict does.
	Strict bool `yaml:"strict"`
	// RuleTimeout bounds each custom rule's evaluation (a Go duration,
	// "5s"); --rule-timeout overrides it.
	RuleTimeout string `yaml:"rule_timeout"`

	// Path is where the file was read from (relative to the scanned root
	// when it lies inside it), for findings that point at a waiver.
	Path string `yaml:"-"`
}

// RuleConfig is a rule's mode.
type RuleConfig struct {
	Mode string `yaml:"mode"` // enforced (default) | disabled
}

// Probes are the live audit's active probe targets.
type Probes struct {
	ExpectReachable []string `yaml:"expect_reachable"`
	ExpectBlocked   []string `yaml:"expect_blocked"`
}

// Waiver accepts a finding for a reason, until it expires.
type Waiver struct {
	Rule        string `yaml:"rule" json:"rule,omitempty"`
	Path        string `yaml:"path" json:"path,omitempty"`
	Fingerprint string `yaml:"fingerprint" json:"fingerprint,omitempty"`
	Reason      string `yaml:"reason" json:"reason"`
	Expires     string `yaml:"expires" json:"expires,omitempty"` // YYYY-MM-DD, the last day it applies
	Line        int    `yaml:"-" json:"line"`
}

// ErrConfig marks an invalid policy file (exit 2).
var ErrConfig = errors.New("invalid policy file")

// MaxConfigSize bounds a policy file: a real one is a few kilobytes.
const MaxConfigSize = 1 << 20

// LoadConfig reads and validates a policy file the user named: a regular
// file (not a symlink, FIFO or device), read once through the cap and
// the deadline of collectors.ReadFile.
func LoadConfig(path string) (*Config, error) {
	b, err := collectors.ReadFile(context.Background(), path, MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("%w %s: cannot read: %s", ErrConfig, path, collectors.Reason(err))
	}
	return ParseConfig(path, b)
}

// ParseConfig decodes a policy file strictly: an unknown key is an error
// naming the key and line, because a misspelt setting silently ignored is a
// control believed on that is off. A second YAML document is refused: its
// settings would be dropped unread. Errors name lines, never a value read
// from the file (it may not be a policy file at all).
func ParseConfig(name string, b []byte) (*Config, error) {
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w %s: %s", ErrConfig, name, YAMLProblem(err))
	} else if err == nil {
		var next yaml.Node
		switch err := dec.Decode(&next); {
		case err == nil:
			return nil, fmt.Errorf("%w %s: line %d: a second YAML document; a policy file holds one", ErrConfig, name, next.Line)
		case !errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%w %s: %s (in a second YAML document; a policy file holds one)", ErrConfig, name, YAMLProblem(err))
		}
	}
	// Lines of waivers, for findings that point at an expired one.
	for j, line := range ItemLines(b, "waivers") {
		if j < len(c.Waivers) {
			c.Waivers[j].Line = line
		}
	}
	for j, line := range ItemLines(b, "sandboxes") {
		if j < len(c.Sandboxes) {
			c.Sandboxes[j].Line = line
		}
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrConfig, name, err)
	}
	return c, nil
}

func (c *Config) validate() error {
	if c.Version != 1 {
		return fmt.Errorf("version must be 1 (got %d)", c.Version)
	}
	if c.FailOn != "" && c.FailOn != "none" && rules.SeverityRank(c.FailOn) < 0 {
		return fmt.Errorf("fail_on %s is not one of none, %s", shown(c.FailOn), strings.Join(rules.Severities, ", "))
	}
	for _, p := range c.Require {
		if !slices.Contains(rules.Properties, p) {
			return fmt.Errorf("require: %s is not a property (%s)", shown(p), strings.Join(rules.Properties, ", "))
		}
	}
	for p, s := range c.MinScore {
		if !slices.Contains(rules.Properties, p) {
			return fmt.Errorf("min_score: %s is not a property (%s)", shown(p), strings.Join(rules.Properties, ", "))
		}
		if s < 0 || s > 100 {
			return fmt.Errorf("min_score.%s must be between 0 and 100", p)
		}
	}
	if c.RuleTimeout != "" {
		if d, err := time.ParseDuration(c.RuleTimeout); err != nil || d <= 0 {
			return fmt.Errorf("rule_timeout %s is not a positive duration (e.g. 5s)", shown(c.RuleTimeout))
		}
	}
	for id, r := range c.Rules {
		if r.Mode != "" && r.Mode != "enforced" && r.Mode != "disabled" {
			return fmt.Errorf("rules.%s.mode %s must be enforced or disabled", shownBare(id), shown(r.Mode))
		}
	}
	for i, sb := range c.Sandboxes {
		if err := sb.Validate(); err != nil {
			return fmt.Errorf("sandboxes[%d] (line %d): %s", i, sb.Line, unquote(err.Error()))
		}
	}
	for i, w := range c.Waivers {
		at := fmt.Sprintf("waivers[%d] (line %d)", i, w.Line)
		if strings.TrimSpace(w.Reason) == "" {
			return fmt.Errorf("%s: reason is required", at)
		}
		if w.Rule == "" && w.Path == "" && w.Fingerprint == "" {
			return fmt.Errorf("%s: give at least one of rule, path, fingerprint", at)
		}
		if w.Expires != "" {
			if _, err := time.Parse(time.DateOnly, w.Expires); err != nil {
				return fmt.Errorf("%s: expires %s is not a date (YYYY-MM-DD)", at, shown(w.Expires))
			}
		}
	}
	return nil
}

// CheckRuleIDs reports rule ids named by the policy file that no loaded rule
// has: a waiver or mode for a misspelt id would do nothing, silently.
func (c *Config) CheckRuleIDs(set *rules.Set) error {
	var bad []string
	for id := range c.Rules {
		if _, ok := set.Rule(id); !ok {
			bad = append(bad, "rules."+shownBare(id))
		}
	}
	for i, w := range c.Waivers {
		if w.Rule != "" {
			if _, ok := set.Rule(w.Rule); !ok {
				bad = append(bad, fmt.Sprintf("waivers[%d].rule %s (line %d)", i, shownBare(w.Rule), w.Line))
			}
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return fmt.Errorf("%w %s: unknown rule id: %s", ErrConfig, c.Path, strings.Join(bad, ", "))
	}
	return nil
}

// RuleTimeoutOrZero is rule_timeout as a duration, 0 when not set (validate
// has refused anything else).
func (c *Config) RuleTimeoutOrZero() time.Duration {
	d, _ := time.ParseDuration(c.RuleTimeout)
	return d
}

// Disabled lists the rules of set that do not run: those the policy file
// disables, and those disabled by default (custom.default_mode) that it
// does not enforce. A nil Config is the defaults.
func (c *Config) Disabled(set *rules.Set) map[string]bool {
	out := map[string]bool{}
	for _, r := range set.Rules {
		if r.DefaultMode == "disabled" {
			out[r.ID] = true
		}
	}
	if c == nil {
		return out
	}
	for id, r := range c.Rules {
		switch r.Mode {
		case "disabled":
			out[id] = true
		case "enforced":
			delete(out, id)
		}
	}
	return out
}

var (
	typeLine     = regexp.MustCompile(`^line (\d+): (.*)$`)
	unmarshal    = regexp.MustCompile(`^cannot unmarshal (\S+)\b.* into (\S+)$`)
	coreTag      = regexp.MustCompile(`^!!\w+$`)
	unknownField = regexp.MustCompile(`^field (.*) not found in type \S+$`)
	duplicateKey = regexp.MustCompile(`^mapping key (.*) already defined at line (\d+)$`)
	quoted       = regexp.MustCompile("`[^`]*`|'[^']*'|\"[^\"]*\"")
	word         = regexp.MustCompile(`^[a-z][a-z0-9]{0,14}([_.-][a-z0-9]{1,15}){0,4}$`)
	shortValue   = regexp.MustCompile(`^[0-9][0-9a-z.:-]{0,11}$`) // a number, date or duration
)

// ItemLines returns the line of each item of the top-level sequence key of
// a YAML document (nil when there is none).
func ItemLines(b []byte, key string) []int {
	var root yaml.Node
	if yaml.Unmarshal(b, &root) != nil || len(root.Content) == 0 {
		return nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i+1].Kind == yaml.SequenceNode {
			lines := make([]int, len(m.Content[i+1].Content))
			for j, n := range m.Content[i+1].Content {
				lines[j] = n.Line
			}
			return lines
		}
	}
	return nil
}

// YAMLProblem turns the decoder's messages into ones that name the line and
// the key, never a value: yaml.v3 quotes the offending scalar, and the file
// may be anything (a symlink's target, a credentials file given to --config).
func YAMLProblem(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			msgs[i] = typeProblem(e)
		}
		return strings.Join(msgs, "; ")
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "invalid map key") {
		return "invalid map key"
	}
	return unquote(msg)
}

func typeProblem(e string) string {
	line, msg := "", e
	if m := typeLine.FindStringSubmatch(e); m != nil {
		line, msg = "line "+m[1]+": ", m[2]
	}
	if m := unmarshal.FindStringSubmatch(msg); m != nil {
		if !coreTag.MatchString(m[1]) {
			// A tag the file made up ("!ghp_…") is the file's text.
			return fmt.Sprintf("%scannot decode a value with a custom tag into %s", line, m[2])
		}
		return fmt.Sprintf("%scannot decode %s into %s", line, m[1], m[2])
	}
	if m := unknownField.FindStringSubmatch(msg); m != nil {
		if word.MatchString(m[1]) {
			return fmt.Sprintf("%sunknown key %q", line, m[1])
		}
		return line + "unknown key"
	}
	if m := duplicateKey.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%skey %s defined twice (first at line %s)", line, shown(strings.Trim(m[1], `"`)), m[2])
	}
	return line + unquote(msg)
}

// unquote cuts every quoted part of a message but single punctuation
// marks ("could not find expected ':'") and what reads as a setting (see
// shown).
func unquote(msg string) string {
	return quoted.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		if len(q) == 3 && !unicode.IsLetter(rune(q[1])) && !unicode.IsDigit(rune(q[1])) || word.MatchString(inner) {
			return q
		}
		return "…"
	})
}

// shown quotes a value read from the policy file when it reads as a
// setting (a lowercase word: a misspelt severity, property or rule id; a
// short number, date or duration) and hides anything else, which could be
// a secret in a file that is not a policy at all.
func shown(v string) string {
	if word.MatchString(v) || shortValue.MatchString(v) {
		return strconv.Quote(v)
	}
	return "(a value not shown)"
}

// shownBare is shown for ids printed without quotes.
func shownBare(v string) string {
	if word.MatchString(v) {
		return v
	}
	return "(an id not shown)"
}
