// Package rules loads the Rego rules (built-in and users' own), checks their
// METADATA contract, compiles them once and evaluates them against the
// sandbox model. The rules themselves are the .rego files beside this one.
package rules

//go:generate go run ../internal/ruledocs/gen ../docs/rules

import "embed"

// builtin holds lib/ and one directory per area, each with <rule>.rego and
// <rule>_test.rego.
//
//go:embed lib/*.rego */*.rego
var builtin embed.FS
