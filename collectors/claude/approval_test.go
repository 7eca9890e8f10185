package claude

import "testing"

// TestApprovalMode: the workflow collector reads --permission-mode through
// this, so flags and settings files normalize alike.
func TestApprovalMode(t *testing.T) {
	for raw, want := range map[string]string{"bypassPermissions": "bypass", "acceptEdits": "auto", "dontAsk": "auto", "plan": "plan", "default": "default"} {
		if got, ok := ApprovalMode(raw); !ok || got != want {
			t.Errorf("ApprovalMode(%q) = %q, %v, want %q", raw, got, ok, want)
		}
	}
	if _, ok := ApprovalMode("bypass"); ok {
		t.Error("an unknown mode is known")
	}
}
