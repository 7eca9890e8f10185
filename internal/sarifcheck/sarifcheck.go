// Package sarifcheck validates SARIF the way GitHub code scanning will: the
// OASIS SARIF 2.1.0 JSON schema, plus the rules GitHub adds on upload. Tests
// use it for every SARIF the tool writes.
package sarifcheck

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/sarif-schema-2.1.0.json
var schemaJSON []byte

const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var (
	once   sync.Once
	schema *jsonschema.Schema
	errC   error
)

func compiled() (*jsonschema.Schema, error) {
	once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			errC = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(schemaURL, doc); err != nil {
			errC = err
			return
		}
		schema, errC = c.Compile(schemaURL)
	})
	return schema, errC
}

// Validate checks data against the schema and GitHub's upload rules and
// returns every problem found.
func Validate(data []byte) []string {
	var problems []string
	s, err := compiled()
	if err != nil {
		return []string{"compile schema: " + err.Error()}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	if err := s.Validate(inst); err != nil {
		problems = append(problems, "schema: "+err.Error())
	}
	if bytes.Contains(data, []byte(": null")) {
		problems = append(problems, "contains a null value")
	}
	problems = append(problems, github(data)...)
	return problems
}

type log struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID              string `json:"id"`
					FullDescription *struct {
						Text string `json:"text"`
					} `json:"fullDescription"`
					Properties map[string]any `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		AutomationDetails *struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation *struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]any `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

// github applies the rules code scanning enforces beyond the schema.
func github(data []byte) []string {
	var l log
	if err := json.Unmarshal(data, &l); err != nil {
		return []string{"decode: " + err.Error()}
	}
	var p []string
	add := func(f string, a ...any) { p = append(p, fmt.Sprintf(f, a...)) }
	if len(l.Runs) == 0 {
		add("no runs")
	}
	categories := map[string]bool{}
	for ri, run := range l.Runs {
		if run.AutomationDetails == nil || run.AutomationDetails.ID == "" {
			add("run %d: no automationDetails.id", ri)
		} else if categories[run.AutomationDetails.ID] {
			add("run %d: duplicate category %s", ri, run.AutomationDetails.ID)
		} else {
			categories[run.AutomationDetails.ID] = true
		}
		ids := map[string]bool{}
		for _, r := range run.Tool.Driver.Rules {
			ids[r.ID] = true
			if r.FullDescription != nil && len(r.FullDescription.Text) > 1024 {
				add("rule %s: fullDescription over 1024 characters", r.ID)
			}
			sev, ok := r.Properties["security-severity"].(string)
			if !ok {
				add("rule %s: security-severity missing or not a string", r.ID)
			} else if v, err := strconv.ParseFloat(sev, 64); err != nil || v < 0 || v > 10 {
				add("rule %s: security-severity %q is not a number in 0..10", r.ID, sev)
			}
			tags, _ := r.Properties["tags"].([]any)
			if len(tags) > 10 {
				add("rule %s: %d tags (max 10)", r.ID, len(tags))
			}
			hasSec := false
			for _, t := range tags {
				hasSec = hasSec || t == "security"
			}
			if !hasSec {
				add("rule %s: no security tag", r.ID)
			}
		}
		for i, res := range run.Results {
			if !ids[res.RuleID] {
				add("result %d: rule %q not in driver.rules", i, res.RuleID)
			}
			if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil || res.Locations[0].PhysicalLocation.ArtifactLocation == nil {
				add("result %d (%s): no physical location", i, res.RuleID)
				continue
			}
			pl := res.Locations[0].PhysicalLocation
			uri := pl.ArtifactLocation.URI
			if uri == "" || strings.Contains(uri, "://") || strings.HasPrefix(uri, "file:") || strings.HasPrefix(uri, "/") {
				add("result %d (%s): uri %q is not repo-relative", i, res.RuleID, uri)
			}
			if pl.Region == nil || pl.Region.StartLine < 1 {
				add("result %d (%s): startLine < 1", i, res.RuleID)
			}
			if len(res.PartialFingerprints) == 0 {
				add("result %d (%s): no partialFingerprints", i, res.RuleID)
			}
		}
	}
	return p
}
