package warm

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-isatty"
	_ "github.com/moby/buildkit/frontend/dockerfile/parser"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/open-policy-agent/opa/v1/rego"
	_ "github.com/open-policy-agent/opa/v1/tester"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/spf13/cobra"
	_ "github.com/tailscale/hujson"
	_ "github.com/zricethezav/gitleaks/v8/config"
	_ "go.yaml.in/yaml/v3"
)
