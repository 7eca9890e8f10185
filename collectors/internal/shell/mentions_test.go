package shell

import "testing"

func TestMentions(t *testing.T) {
	for _, tt := range []struct {
		line, name string
		want       bool
	}{
		{`echo "$KEY"`, "KEY", true},
		{`echo "${KEY}"`, "KEY", true},
		{`echo "$KEYRING $KEY"`, "KEY", true},
		{`echo "$KEYRING"`, "KEY", false},
		{`echo KEY`, "KEY", false},
	} {
		if got := Mentions(tt.line, tt.name); got != tt.want {
			t.Errorf("Mentions(%q, %q) = %v, want %v", tt.line, tt.name, got, tt.want)
		}
	}
}
