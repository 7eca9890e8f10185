package fleet

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// chromium finds Debian's chromium: CI installs it (.ci/run); elsewhere a
// test without it skips.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium (CI installs Debian's chromium)")
	}
	t.Skip("no chromium: install Debian's chromium to run the HTML report's browser test")
	return ""
}

func headless(t *testing.T, bin, dir string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.Command(bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// TestHTMLReportInBrowser: the HTML report of three stored runs, loaded in
// a real headless Chromium, shows the run's figures (pass rate per
// property, targets per verdict, what changed), draws its SVG charts (each
// property's and verdict's colour is on the screenshot, kept in the test's
// artifact directory), runs no script, and shows a hostile target name as
// text.
func TestHTMLReportInBrowser(t *testing.T) {
	bin := chromium(t)
	ctx := context.Background()
	root := t.TempDir()
	hostile := "<img src=x onerror=alert(1)>"
	write(t, root, map[string]string{
		"repos/a/compose.yaml":               privileged,
		"repos/b/.claude/settings.json":      `{"permissions": {"defaultMode": "bypassPermissions"}}`,
		"repos/c/compose.yaml":               "services:\n  agent:\n    image: example/claude-runner:1\n    read_only: true\n    network_mode: none\n",
		"repos/" + hostile + "/compose.yaml": privileged,
		"repos/e/.sandbox-audit.yaml":        "version: 1\nrules: [\n",
	})
	st, err := OpenStore(ctx, filepath.Join(root, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := (&Inventory{Dir: root, Targets: []TargetDef{{Path: "repos/*"}}}).Expand()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if i == 2 { // the third run: c gets worse
			write(t, root, map[string]string{"repos/c/compose.yaml": privileged})
		}
		if _, err := Scan(ctx, ts, st, Options{Concurrency: 2}); err != nil && !strings.Contains(err.Error(), "could not") {
			t.Logf("run %d: %v", i+1, err)
		}
	}
	rep, err := Build(ctx, st, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.History) != 3 || !rep.Regressed() {
		t.Fatalf("history %d runs, regressed %v", len(rep.History), rep.Regressed())
	}
	dir := t.ArtifactDir()
	page := filepath.Join(dir, "fleet.html")
	var html bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(html.String()), "<script") {
		t.Error("the page holds a script")
	}
	if err := os.WriteFile(page, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	dom := string(headless(t, bin, dir, "--dump-dom", "file://"+page))
	text := func(id string) string {
		m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`).FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("no element %s on the page", id)
		}
		return m[1]
	}
	for _, p := range rules.Properties {
		if got, want := text("pass-rate-"+p), fmt.Sprintf("%d%%", rep.PassRate[p]); got != want {
			t.Errorf("pass rate of %s on the page %q, in the report %q", p, got, want)
		}
	}
	for _, v := range verdictOrder {
		if got := text("verdict-" + v); got != strconv.Itoa(rep.Verdicts[v]) {
			t.Errorf("%s on the page %q, in the report %d", v, got, rep.Verdicts[v])
		}
	}
	if text("run-state") != "complete" || text("stored") != "5" || text("changed") != strconv.Itoa(len(rep.Changes)) || text("regressed") != "some got worse" {
		t.Errorf("run state %q, stored %q, changed %q", text("run-state"), text("stored"), text("changed"))
	}
	if rep.Verdicts["error"] != 1 || !strings.Contains(dom, `id="errors"`) {
		t.Errorf("the target whose policy is broken: verdicts %v", rep.Verdicts)
	}
	if strings.Contains(dom, "<img") || !strings.Contains(dom, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Error("the hostile target name is not shown as text")
	}

	shot := filepath.Join(dir, "fleet.png")
	headless(t, bin, dir, "--hide-scrollbars", "--window-size=1000,1600", "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := colours(img)
	for name, hex := range map[string]string{
		"disposable line": propertyColors["disposable"], "network line": propertyColors["network"],
		"credentials line": propertyColors["credentials"], "review line": propertyColors["review"],
		"convenience bar": verdictColors["convenience"], "error bar": verdictColors["error"],
	} {
		if seen[hex] < 20 {
			t.Errorf("the %s (%s) is not drawn: %d pixels", name, hex, seen[hex])
		}
	}
	t.Logf("page and screenshot in %s", dir)
}

// colours counts the pixels of each exact colour, as #rrggbb.
func colours(img image.Image) map[string]int {
	out := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			out[fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)]++
		}
	}
	return out
}
