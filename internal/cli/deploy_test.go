package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
)

// TestDeployPassesOwnAudit: the shipped fleet deployment (deploy/kubernetes,
// deploy/workflow-templates) passes the tool's own audit with nothing above
// low, every file read; the CronJob's arguments are flags fleet scan has,
// and its inventory is one fleet scan accepts.
func TestDeployPassesOwnAudit(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"scan", "../../deploy", "-f", "json", "--fail-on", "medium"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	var rep struct {
		Findings []struct {
			RuleID   string `json:"rule_id"`
			Severity string `json:"severity"`
		} `json:"findings"`
		Errors     []any `json:"errors"`
		Properties map[string]struct {
			Status string `json:"status"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		t.Errorf("not everything was read: %v", rep.Errors)
	}
	for _, f := range rep.Findings {
		if f.Severity != "low" && f.Severity != "info" {
			t.Errorf("finding %s (%s)", f.RuleID, f.Severity)
		}
	}
	if rep.Properties["network"].Status != "pass" || rep.Properties["credentials"].Status != "pass" {
		t.Errorf("properties %+v: the NetworkPolicy and the tokenless ServiceAccount are not seen", rep.Properties)
	}

	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "kubernetes", "cronjob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cj struct {
		Spec struct {
			JobTemplate struct {
				Spec struct {
					Completions int `yaml:"completions"`
					Template    struct {
						Spec struct {
							Containers []struct {
								Args []string `yaml:"args"`
								Env  []struct {
									Name  string `yaml:"name"`
									Value string `yaml:"value"`
								} `yaml:"env"`
							} `yaml:"containers"`
						} `yaml:"spec"`
					} `yaml:"template"`
				} `yaml:"spec"`
			} `yaml:"jobTemplate"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(b, &cj); err != nil {
		t.Fatal(err)
	}
	js := cj.Spec.JobTemplate.Spec
	c := js.Template.Spec.Containers[0]
	if len(c.Args) < 2 || c.Args[0] != "fleet" || c.Args[1] != "scan" {
		t.Fatalf("args %v", c.Args)
	}
	flags := newFleetScanCmd().Flags()
	for _, a := range c.Args[2:] {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if flags.Lookup(name) == nil {
			t.Errorf("the CronJob passes %s, which fleet scan does not have", a)
		}
	}
	shards := ""
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETIONS" {
			shards = e.Value
		}
	}
	if want := strconv.Itoa(js.Completions); shards != want {
		t.Errorf("JOB_COMPLETIONS %q, the Job's completions %d", shards, js.Completions)
	}

	b, err = os.ReadFile(filepath.Join("..", "..", "deploy", "kubernetes", "inventory.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cm struct {
		Data map[string]string `yaml:"data"`
	}
	if err := yaml.Unmarshal(b, &cm); err != nil {
		t.Fatal(err)
	}
	if _, err := fleet.ParseInventory("fleet.yaml", []byte(cm.Data["fleet.yaml"])); err != nil {
		t.Errorf("the shipped inventory: %v", err)
	}
}
