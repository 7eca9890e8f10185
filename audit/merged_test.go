package audit

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestRulesOnMergedFacts evaluates every built-in rule on the fixtures'
// facts piled up: per kind of fact, every list of every fact of one tool
// (or source, or file) appended to the first of them, so that one agent
// holds every allow rule of every settings file, one workload every mount
// and command. A rule's function that picks one of several matching facts
// with `some` gives conflicting values on such input (eval_conflict_error,
// which stops the whole scan); a held-out settings file with both Edit and
// MultiEdit allowed did exactly that. The findings are not checked, only
// that every rule evaluates.
func TestRulesOnMergedFacts(t *testing.T) {
	ctx := context.Background()
	col, err := Collect(ctx, Options{Path: filepath.Join("..", "fixtures")})
	if err != nil {
		t.Fatal(err)
	}
	d := col.Doc
	if len(d.Agents) < 10 || len(d.Workloads) < 10 || len(d.Workflows) < 3 {
		t.Fatalf("fixtures gave %d agents, %d workloads, %d workflows", len(d.Agents), len(d.Workloads), len(d.Workflows))
	}
	d.Agents = pile(d.Agents, func(a model.Agent) string { return a.Tool })
	d.Workloads = pile(d.Workloads, func(w model.Workload) string { return w.Source })
	d.Workflows = pile(d.Workflows, func(w model.Workflow) string { return "" })
	d.MCPServers = pile(d.MCPServers, func(s model.MCPServer) string { return s.File })
	for i := range d.Workflows {
		d.Workflows[i].Jobs = pile(d.Workflows[i].Jobs, func(model.Job) string { return "" })
	}
	// Every permission rule and command line the rule tests name, at
	// once, in every agent and workload: the fixtures alone hold few
	// rules of each kind.
	perms, cmds := testStrings(t)
	for i := range d.Agents {
		a := &d.Agents[i]
		for _, v := range perms {
			a.Allow = append(a.Allow, model.Str{Value: v, Loc: a.Loc})
		}
	}
	for i := range d.Workloads {
		w := &d.Workloads[i]
		for _, c := range cmds {
			w.Commands = append(w.Commands, model.Command{Phase: "postStart", Text: c, Loc: w.Loc})
		}
	}
	d.AgentGroups = nil
	d.GroupAgents()
	d.Normalize()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	in, err := rules.Input(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Rules.Eval(ctx, in); err != nil {
		t.Fatalf("rules on merged facts: %v", err)
	}
}

// pile keeps the first fact of each key, with every slice field of the
// others of that key appended to its own.
func pile[T any](facts []T, key func(T) string) []T {
	var out []T
	at := map[string]int{}
	for _, f := range facts {
		i, ok := at[key(f)]
		if !ok {
			at[key(f)] = len(out)
			out = append(out, f)
			continue
		}
		dst, src := reflect.ValueOf(&out[i]).Elem(), reflect.ValueOf(f)
		for k := range dst.NumField() {
			if fd := dst.Field(k); fd.Kind() == reflect.Slice && fd.CanSet() {
				fd.Set(reflect.AppendSlice(fd, src.Field(k)))
			}
		}
	}
	return out
}

// ruleString is a permission rule in a rule test (Bash(git push:*),
// Edit, mcp__github__merge_pull_request); commandString a command line
// ("text": "claude --dangerously-skip-permissions -p x").
var (
	ruleString    = regexp.MustCompile(`"((?:Bash|PowerShell|Shell|shell|run_shell_command|Read|Edit|MultiEdit|Write|WebFetch|bash|edit|read|mcp__)[^"\\]*)"`)
	commandString = regexp.MustCompile(`"text":\s*"([^"\\]*)"`)
)

// testStrings are the permission rules and command lines the built-in
// rules' tests use, each once, in order.
func testStrings(t *testing.T) (perms, cmds []string) {
	t.Helper()
	seen := map[string]bool{}
	add := func(to *[]string, v string) {
		if !seen[v] {
			seen[v] = true
			*to = append(*to, v)
		}
	}
	err := filepath.WalkDir(filepath.Join("..", "rules"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".rego" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range ruleString.FindAllSubmatch(b, -1) {
			add(&perms, string(m[1]))
		}
		for _, m := range commandString.FindAllSubmatch(b, -1) {
			add(&cmds, string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(perms)
	sort.Strings(cmds)
	if len(perms) < 100 || len(cmds) < 10 {
		t.Fatalf("rule tests gave %d permission rules and %d commands", len(perms), len(cmds))
	}
	return perms, cmds
}
