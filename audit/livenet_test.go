package audit

import (
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestLiveNetworkEvidence: only evidence decides the network of a live
// audit. No route but loopback and the host's network namespace decide it
// without probes; a default route, with or without a proxy variable, does
// not, and says so with the command that would.
func TestLiveNetworkEvidence(t *testing.T) {
	route := []model.Route{{Family: "ipv4", Iface: "eth0", Gateway: "10.0.0.1"}}
	tests := []struct {
		name    string
		live    model.Live
		decided bool
		why     string
	}{
		{"loopback only", model.Live{}, true, ""},
		{"probed", model.Live{Network: model.LiveNetwork{DefaultRoutes: route, Probed: true}}, true, ""},
		{"host network", model.Live{Network: model.LiveNetwork{DefaultRoutes: route}, Privileges: model.Privileges{HostNet: true}}, true, ""},
		{"route, no proxy", model.Live{Network: model.LiveNetwork{DefaultRoutes: route}}, false, "default route eth0 via 10.0.0.1 and no proxy, nothing probed"},
		{"route and proxy", model.Live{Network: model.LiveNetwork{DefaultRoutes: route, Proxies: []model.Proxy{{Var: "HTTPS_PROXY", Host: "proxy:3128"}}}}, false, "a proxy variable (HTTPS_PROXY)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{Live: &tt.live}
			if got := liveEvidence(doc)["network"]; got != tt.decided {
				t.Errorf("network evidence = %v, want %v", got, tt.decided)
			}
			var notes []string
			for _, u := range unread(doc, nil) {
				if u.Kind == "live:network" {
					notes = append(notes, u.Source)
				}
			}
			switch {
			case tt.decided && len(notes) != 0:
				t.Errorf("decided, yet unread %q", notes)
			case !tt.decided && (len(notes) != 1 || !strings.Contains(notes[0], tt.why) || !strings.Contains(notes[0], "--probe")):
				t.Errorf("unread = %q, want one naming %q and --probe", notes, tt.why)
			}
		})
	}
}
