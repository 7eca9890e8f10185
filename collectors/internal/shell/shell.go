// Package shell reads shell scripts and command lines with a real shell
// parser (mvdan.cc/sh) and lists the simple commands they would run, with
// their words resolved as far as the script itself gives their values:
// variables assigned literally, arrays, for loops over literal lists,
// functions (inlined at their call), here-documents. Nothing is executed.
// Collectors use it to read what a firewall script programs, which scripts
// a lifecycle command runs, and what a Dockerfile RUN writes to sudoers.
package shell

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits keep a hostile script from making the walk explode: functions
// calling each other, loops over huge lists, deep nesting.
const (
	maxCalls     = 20000
	maxInline    = 8
	maxLoopItems = 128
	maxDepth     = 200
	maxSteps     = 200000
)

// Arg is one word of a command after expansion.
type Arg struct {
	// Text is the word's value; parts the script does not give a value
	// for stay as written ($HOST, $(…)).
	Text string
	// Known is true when every part of the word has a known value.
	Known bool
}

// Call is one simple command.
type Call struct {
	Args []Arg
	Line int
	// Cond is set when the command runs only under a condition: in an if
	// or case branch, after && or ||, in a function called that way.
	Cond bool
	// Sub is set when the command runs in a subshell (a pipeline element,
	// a command substitution, ( … )), where exit leaves only that subshell.
	Sub bool
	// Stdin is the here-document or here-string fed to the command, with
	// its expansions resolved like a double-quoted word.
	Stdin    string
	HasStdin bool
	// Out lists the files the command's output goes to (> and >>).
	Out []string
}

// Name is the command's first word without its directory, "" when unknown.
func (c Call) Name() string {
	if len(c.Args) == 0 || !c.Args[0].Known {
		return ""
	}
	n := c.Args[0].Text
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

// Texts returns the words' texts.
func (c Call) Texts() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = a.Text
	}
	return out
}

// LineError is a script that does not parse, with the line the parser
// stopped at.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Parse reads src as a Bash script.
func Parse(src []byte) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), "")
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, &LineError{Line: int(pe.Pos.Line()), Err: errors.New(pe.Text)}
		}
		// A feature of another shell ("unsigned expressions are a mksh
		// feature"): as malformed as a syntax error, at its line.
		var le syntax.LangError
		if errors.As(err, &le) {
			return nil, &LineError{Line: max(1, int(le.Pos.Line())), Err: fmt.Errorf("%s: a feature of another shell, not Bash", le.Feature)}
		}
		return nil, err
	}
	return f, nil
}

// Calls parses src and lists the commands it would run, in order. Commands
// after an unconditional exit of the script are left out: they never run.
// firstLine is the line src starts at in its file (1 for a whole script).
func Calls(src []byte, firstLine int) ([]Call, error) {
	return CallsWith(src, firstLine, nil)
}

// CallsWith is Calls with variables already set, as a Dockerfile's ARG and
// ENV defaults are when its RUN instructions start.
func CallsWith(src []byte, firstLine int, env map[string]string) ([]Call, error) {
	f, err := Parse(src)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			le.Line += firstLine - 1
		}
		return nil, err
	}
	w := newWalker(firstLine - 1)
	for k, v := range env {
		w.vars[k] = value{words: []string{v}, known: true}
	}
	w.stmts(f.Stmts)
	return w.calls, nil
}

// value is what a variable holds: one word, or an array's elements.
type value struct {
	words []string
	known bool
}

type walker struct {
	lineOff  int
	calls    []Call
	vars     map[string]value
	funcs    map[string]*syntax.Stmt
	args     []Arg // positional parameters of the function being inlined
	cond     int
	sub      int
	inline   int
	depth    int
	stopped  bool // the script exited
	returned bool // the inlined function returned
	steps    int
	// at is the line of the outermost inlined function call: commands
	// of the function body are reported where the script calls it.
	at int
}

func newWalker(lineOff int) *walker {
	return &walker{lineOff: lineOff, vars: map[string]value{}, funcs: map[string]*syntax.Stmt{}}
}

func (w *walker) line(p syntax.Pos) int {
	if w.at > 0 {
		return w.at
	}
	return int(p.Line()) + w.lineOff
}

func (w *walker) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		if w.stopped || w.returned || len(w.calls) >= maxCalls || w.steps >= maxSteps {
			return
		}
		w.stmt(s)
	}
}

func (w *walker) stmt(s *syntax.Stmt) {
	if s == nil || w.depth >= maxDepth || w.steps >= maxSteps {
		return
	}
	w.steps++
	w.depth++
	defer func() { w.depth-- }()
	if s.Background {
		w.sub++
		defer func() { w.sub-- }()
	}
	stdin, out := w.redirs(s.Redirs)
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, s, stdin, out)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt:
			w.stmt(c.X)
			w.cond++
			w.stmt(c.Y)
			w.cond--
		default: // pipelines: every element runs in a subshell
			w.sub++
			w.stmt(c.X)
			w.stmt(c.Y)
			w.sub--
		}
	case *syntax.IfClause:
		w.cond++
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
		w.cond--
	case *syntax.CaseClause:
		w.cond++
		for _, it := range c.Items {
			w.stmts(it.Stmts)
		}
		w.cond--
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		w.forClause(c)
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.sub++
		w.stmts(c.Stmts)
		w.sub--
	case *syntax.FuncDecl:
		if c.Name != nil && c.Body != nil {
			w.funcs[c.Name.Value] = c.Body
		}
	case *syntax.DeclClause:
		for _, a := range c.Args {
			w.assign(a)
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.sub++
		w.stmt(c.Stmt)
		w.sub--
	}
}

// redirs reads a statement's here-document (or here-string) and the files
// its output is redirected to.
func (w *walker) redirs(rs []*syntax.Redirect) (*string, []string) {
	var stdin *string
	var out []string
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				s := w.quoted(r.Hdoc)
				stdin = &s
			} else {
				empty := ""
				stdin = &empty
			}
		case syntax.WordHdoc:
			s := w.quoted(r.Word)
			stdin = &s
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut:
			if r.N == nil || r.N.Value == "1" {
				if a := w.words(r.Word); len(a) > 0 {
					out = append(out, a[0].Text)
				}
			}
		}
	}
	return stdin, out
}

func (w *walker) forClause(c *syntax.ForClause) {
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil {
		w.stmts(c.Do)
		return
	}
	var items []Arg
	for _, word := range it.Items {
		items = append(items, w.words(word)...)
	}
	allKnown := len(items) > 0 && len(items) <= maxLoopItems
	for _, a := range items {
		allKnown = allKnown && a.Known
	}
	if !allKnown {
		w.vars[it.Name.Value] = value{words: []string{"$" + it.Name.Value}}
		w.stmts(c.Do)
		return
	}
	for _, a := range items {
		if w.stopped || len(w.calls) >= maxCalls || w.steps >= maxSteps {
			return
		}
		w.vars[it.Name.Value] = value{words: []string{a.Text}, known: true}
		w.stmts(c.Do)
	}
}

func (w *walker) assign(a *syntax.Assign) {
	if a == nil || a.Name == nil {
		return
	}
	name := a.Name.Value
	switch {
	case a.Array != nil:
		v := value{known: true}
		if old, ok := w.vars[name]; ok && a.Append {
			// ARGS+=(-v x:y): the elements so far, then these
			v = value{words: slices.Clone(old.words), known: old.known}
		}
		for _, e := range a.Array.Elems {
			for _, x := range w.words(e.Value) {
				v.words = append(v.words, x.Text)
				v.known = v.known && x.Known
			}
		}
		w.vars[name] = v
	case a.Value != nil:
		x := w.quoted1(a.Value)
		if a.Append {
			if old, ok := w.vars[name]; ok && len(old.words) == 1 {
				x.Text = old.words[0] + x.Text
				x.Known = x.Known && old.known
			}
		}
		w.vars[name] = value{words: []string{x.Text}, known: x.Known}
	case a.Naked:
		if _, ok := w.vars[name]; !ok {
			w.vars[name] = value{words: []string{""}, known: true}
		}
	}
}

func (w *walker) call(c *syntax.CallExpr, s *syntax.Stmt, stdin *string, out []string) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			w.assign(a)
		}
		return
	}
	var args []Arg
	for _, word := range c.Args {
		args = append(args, w.words(word)...)
	}
	if len(args) == 0 {
		return
	}
	call := Call{Args: args, Line: w.line(s.Pos()), Cond: w.cond > 0, Sub: w.sub > 0, Out: out}
	if stdin != nil {
		call.Stdin, call.HasStdin = *stdin, true
	}
	w.calls = append(w.calls, call)
	name := ""
	if args[0].Known {
		name = args[0].Text
	}
	switch name {
	case "exit":
		if w.cond == 0 && w.sub == 0 {
			w.stopped = true
		}
		return
	case "return":
		if w.cond == 0 && w.inline > 0 {
			w.returned = true
		}
		return
	}
	if body, ok := w.funcs[name]; ok && w.inline < maxInline {
		saved, savedAt := w.args, w.at
		w.args = args[1:]
		w.at = call.Line
		w.inline++
		w.stmt(body)
		w.inline--
		w.args, w.at = saved, savedAt
		w.returned = false
		return
	}
	w.nested(args)
}

// nested walks the script a shell is given with -c, when it is literal:
// bash -c 'sudo /usr/local/bin/init-firewall.sh'.
func (w *walker) nested(args []Arg) {
	i := 0
	for i < len(args) && args[i].Known && isWrapper(baseName(args[i].Text)) {
		i++
		for i < len(args) && strings.HasPrefix(args[i].Text, "-") {
			i++
		}
	}
	if i >= len(args) || !args[i].Known || !IsShell(baseName(args[i].Text)) {
		return
	}
	for j := i + 1; j+1 < len(args); j++ {
		if a := args[j].Text; strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			if !args[j+1].Known || w.inline >= maxInline {
				return
			}
			f, err := Parse([]byte(args[j+1].Text))
			if err != nil {
				return
			}
			w.inline++
			w.sub++
			w.stmts(f.Stmts)
			w.sub--
			w.inline--
			return
		}
	}
}

// words expands one shell word into fields: "${A[@]}" and unquoted
// expansions of known values may give several.
func (w *walker) words(word *syntax.Word) []Arg {
	if word == nil {
		return nil
	}
	fields := []Arg{{Known: true}}
	for _, p := range word.Parts {
		fields = w.part(fields, p, false)
	}
	if len(fields) == 1 && fields[0].Text == "" && fields[0].Known && !hasQuotes(word) {
		return nil // an unquoted empty expansion disappears
	}
	return fields
}

// quoted1 expands a word as one field (an assignment's value).
func (w *walker) quoted1(word *syntax.Word) Arg {
	fields := []Arg{{Known: true}}
	for _, p := range word.Parts {
		fields = w.part(fields, p, true)
	}
	return join(fields)
}

// quoted expands a here-document body, as a double-quoted word.
func (w *walker) quoted(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	return w.quoted1(word).Text
}

func join(fields []Arg) Arg {
	out := Arg{Known: true}
	var parts []string
	for _, f := range fields {
		parts = append(parts, f.Text)
		out.Known = out.Known && f.Known
	}
	out.Text = strings.Join(parts, " ")
	return out
}

func hasQuotes(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// part appends one word part to the last field; multi-word values start
// new fields unless quoted.
func (w *walker) part(fields []Arg, p syntax.WordPart, quoted bool) []Arg {
	last := &fields[len(fields)-1]
	switch x := p.(type) {
	case *syntax.Lit:
		last.Text += unescape(x.Value, quoted)
	case *syntax.SglQuoted:
		v := x.Value
		if x.Dollar {
			v = ansiC(v)
		}
		last.Text += v
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			fields = w.part(fields, q, true)
		}
	case *syntax.ParamExp:
		words, known, multi := w.param(x)
		return spread(fields, words, known, multi || (!quoted && known && splits(words)), quoted)
	case *syntax.CmdSubst:
		w.sub++
		w.stmts(x.Stmts)
		w.sub--
		if isPwd(x.Stmts) {
			last.Text += "$PWD" // $(pwd): the directory the script runs in
		} else {
			last.Text += "$(…)"
		}
		last.Known = false
	case *syntax.ProcSubst:
		w.sub++
		w.stmts(x.Stmts)
		w.sub--
		last.Text += "<(…)"
		last.Known = false
	case *syntax.ArithmExp:
		last.Text += "$((…))"
		last.Known = false
	default:
		last.Known = false
	}
	return fields
}

func splits(words []string) bool {
	return len(words) == 1 && strings.ContainsAny(words[0], " \t\n")
}

// spread adds a value to the fields: the first word joins the last field,
// each further one starts a field of its own.
func spread(fields []Arg, words []string, known, multi, quoted bool) []Arg {
	if multi && !quoted && len(words) == 1 {
		words = strings.Fields(words[0])
	}
	if !multi {
		words = []string{strings.Join(words, " ")}
	}
	if len(words) == 0 {
		return fields
	}
	last := &fields[len(fields)-1]
	last.Text += words[0]
	last.Known = last.Known && known
	for _, wd := range words[1:] {
		fields = append(fields, Arg{Text: wd, Known: known})
	}
	return fields
}

// param resolves $x, ${x}, ${x:-default}, ${A[@]}, $@ and $1.
func (w *walker) param(p *syntax.ParamExp) (words []string, known, multi bool) {
	if p.Param == nil {
		return []string{"$?"}, false, false
	}
	name := p.Param.Value
	asWritten := []string{"$" + name}
	if p.Index != nil && allIndex(p) {
		asWritten = []string{"${" + name + "[@]}"} // an array: any number of words
	}
	if p.Excl && p.Names == 0 && p.Index == nil && p.Exp == nil {
		// ${!v}: the variable v names, whose value the script does not
		// give (for v in AWS_KEY …; do … "${!v}").
		if v, ok := w.vars[name]; ok && v.known && len(v.words) == 1 && validName(v.words[0]) {
			return []string{"$" + v.words[0]}, false, false
		}
		return []string{"${!" + name + "}"}, false, false
	}
	if p.Length || p.Excl || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return asWritten, false, false
	}
	switch {
	case (name == "@" || name == "*") && w.inline == 0 && len(w.args) == 0:
		// The script's own arguments: whoever runs it gives them.
		return asWritten, false, name == "@"
	case name == "@" || name == "*":
		for _, a := range w.args {
			words = append(words, a.Text)
		}
		known = w.inline > 0
		for _, a := range w.args {
			known = known && a.Known
		}
		return words, known, name == "@"
	case len(name) == 1 && name[0] >= '1' && name[0] <= '9':
		i := int(name[0] - '1')
		if w.inline > 0 && i < len(w.args) {
			return []string{w.args[i].Text}, w.args[i].Known, false
		}
		if w.inline > 0 {
			return []string{""}, true, false
		}
		return asWritten, false, false
	}
	v, ok := w.vars[name]
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if !ok || (len(v.words) == 1 && v.words[0] == "" && p.Exp.Op != syntax.DefaultUnset) {
				d := Arg{Known: true}
				if p.Exp.Word != nil {
					d = w.quoted1(p.Exp.Word)
				}
				return []string{d.Text}, d.Known, false
			}
		default:
			return asWritten, false, false
		}
	}
	if ok && !v.known && allIndex(p) && len(v.words) > 0 {
		// An array with an element the script does not give
		// (ARGS=(-v "$HOME/.x:/x")): its elements as written, one word
		// each, none known.
		return v.words, false, true
	}
	if !ok || !v.known {
		// Keep the name, not the unknown value's text: "$HOST_NETWORK"
		// says more in a report than "$(…)".
		return asWritten, false, false
	}
	if p.Index != nil {
		if idx, isWord := p.Index.(*syntax.Word); isWord {
			if lit := idx.Lit(); lit == "@" || lit == "*" {
				return v.words, v.known, lit == "@"
			}
		}
		return asWritten, false, false
	}
	if len(v.words) == 0 {
		return []string{""}, v.known, false
	}
	return v.words[:1], v.known, false
}

// validName: s is a shell variable's name.
func validName(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// isPwd: the command substitution is $(pwd) alone.
func isPwd(ss []*syntax.Stmt) bool {
	if len(ss) != 1 {
		return false
	}
	c, ok := ss[0].Cmd.(*syntax.CallExpr)
	return ok && len(c.Args) == 1 && c.Args[0].Lit() == "pwd"
}

// allIndex: the expansion is of every element of an array (${A[@]},
// ${A[*]}).
func allIndex(p *syntax.ParamExp) bool {
	idx, isWord := p.Index.(*syntax.Word)
	if !isWord {
		return false
	}
	lit := idx.Lit()
	return lit == "@" || lit == "*"
}

// unescape removes the backslashes the shell removes: any in an unquoted
// word, and \" \\ \$ \` and an escaped newline inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			n := s[i+1]
			switch {
			case n == '\n':
				i++
				continue
			case !quoted, strings.IndexByte("\"\\$`", n) >= 0:
				b.WriteByte(n)
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ansiC decodes the common escapes of $'…'.
func ansiC(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, "'", `\"`, `"`)
	return r.Replace(s)
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// IsShell reports whether name is a POSIX-style shell.
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh":
		return true
	}
	return false
}
