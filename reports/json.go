package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// JSON writes the report as the documented JSON contract.
type JSON struct{}

var _ Writer = JSON{}

// Write implements Writer. The findings of a large scan are most of the
// report (19,000 findings: 14 MB), and its workloads the most of the rest:
// they are encoded one at a time into the writer rather than building the
// whole document in memory, indented, twice (encoding/json's Encoder
// marshals, then indents a copy). The bytes are those of json.Encoder with
// two-space indentation.
func (JSON) Write(w io.Writer, r *Report) error {
	shell := *r
	shell.Findings = nil
	holeWorkloads := len(r.Workloads) > 0
	if holeWorkloads {
		shell.Workloads = nil
	}
	head, err := marshalIndent(&shell, "")
	if err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := newEncoder(&buf, "    ")
	// element writes one element of a top-level array, as the whole
	// document's encoding would.
	element := func(v any, last bool) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
		bw.WriteString("    ")
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		if !last {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
		return nil
	}
	// Workloads and Findings are encoded as null in the shell; each null
	// is swapped for its list. The keys appear once at the top level
	// (nested keys are indented further): "findings" in properties are
	// counts.
	if holeWorkloads {
		null := []byte("\n  \"workloads\": null,\n")
		i := bytes.Index(head, null)
		if i < 0 {
			return fmt.Errorf("write json: workloads field not found")
		}
		bw.Write(head[:i])
		bw.WriteString("\n  \"workloads\": [\n")
		for k := range r.Workloads {
			if err := element(&r.Workloads[k], k == len(r.Workloads)-1); err != nil {
				return err
			}
		}
		bw.WriteString("  ],")
		head = head[i+len(null)-1:]
	}
	null := []byte("\n  \"findings\": null,\n")
	i := bytes.Index(head, null)
	if i < 0 {
		return fmt.Errorf("write json: findings field not found")
	}
	bw.Write(head[:i])
	if n := r.NumFindings(); n == 0 {
		bw.WriteString("\n  \"findings\": [],\n")
	} else {
		bw.WriteString("\n  \"findings\": [\n")
		k := 0
		err := r.EachFinding(func(f *rules.Finding) error {
			k++
			return element(f, k == n)
		})
		if err != nil {
			return err
		}
		bw.WriteString("  ],\n")
	}
	bw.Write(head[i+len(null):])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// marshalIndent encodes v as json.Encoder does with SetIndent(prefix, "  ")
// and no HTML escaping.
func marshalIndent(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	if err := newEncoder(&buf, prefix).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func newEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc
}
