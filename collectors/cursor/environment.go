package cursor

import (
	"fmt"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// environmentReason is why a Cursor cloud agent's environment is listed as
// read but not audited: the file sets up the machine (a Dockerfile, install
// and start commands); the agent's network access and secrets are set in
// Cursor's dashboard, where the scan does not look.
const environmentReason = "sets up a Cursor cloud agent's machine; its network access and secrets are set in Cursor's dashboard, not in the file"

// environment reads .cursor/environment.json, a Cursor cloud (background)
// agent's machine setup: the literal secrets its commands hold, and a
// Skipped entry that says the sandbox itself was not judged from it.
func environment(p string, root *jsonpos.Value, doc *model.Document) error {
	var bad error
	command := func(where string, v *jsonpos.Value) {
		if v == nil {
			return
		}
		if v.Kind != jsonpos.String {
			if bad == nil {
				bad = &collectors.ParseError{Line: v.Line, Err: fmt.Errorf("%s: want a string, got %s", where, v.Kind)}
			}
			return
		}
		_, found := secrets.Hide(v.Str)
		for _, f := range found {
			doc.Credentials = append(doc.Credentials, model.Credential{
				SecretRef: f.SecretRef, Where: "settings", ReadableByAgent: true,
				Context: "Cursor cloud agent environment " + where, Loc: model.Loc{File: p, Line: v.Line},
			})
		}
	}
	for _, k := range []string{"install", "start", "update"} {
		command(k, root.Get(k))
	}
	if ts := root.Get("terminals"); ts != nil {
		if ts.Kind != jsonpos.Array {
			return &collectors.ParseError{Line: ts.Line, Err: fmt.Errorf("terminals: want an array, got %s", ts.Kind)}
		}
		for _, t := range ts.Elems {
			command("terminal command", t.Get("command"))
		}
	}
	doc.Skipped = append(doc.Skipped, model.SkippedObject{
		Kind: "Cursor cloud agent environment", Name: p, Reason: environmentReason, Count: 1, Format: "cursor",
		Loc: model.Loc{File: p, Line: root.Line},
	})
	return bad
}
