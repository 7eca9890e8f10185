package shell

import "testing"

func TestDropsTo(t *testing.T) {
	for src, want := range map[string]string{
		"chown -R node /home/node\nexec gosu node \"$@\"\n":       "node@2",
		"su-exec app:app claude\n":                                "app:app@1",
		"exec runuser -u claude -- claude -p go\n":                "claude@1",
		"setpriv --reuid=1000 --regid=1000 --init-groups bash\n":  "1000@1",
		"su - agent -c 'claude --dangerously-skip-permissions'\n": "agent@1",
		"su -s /bin/bash claude -c run\n":                         "claude@1",
		"HOME=/home/a sudo -u agent -E claude\n":                  "agent@1",
		"gosu root true\nexec gosu \"$USERNAME\" claude\n":        "$USERNAME@2",
		"exec claude -p go\n":                                     "",
		"sudo iptables -F\n":                                      "",
		"su root -c x\n":                                          "",
	} {
		calls, err := Calls([]byte(src), 1)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if d := DropsTo(calls); d != nil {
			got = d.User + "@" + string(rune('0'+d.Line))
		}
		if got != want {
			t.Errorf("DropsTo(%q) = %q, want %q", src, got, want)
		}
	}
}
