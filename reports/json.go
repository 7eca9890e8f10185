package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes the report as the documented JSON contract.
type JSON struct{}

var _ Writer = JSON{}

// Write implements Writer. The findings of a large scan are most of the
// report (19,000 findings: 14 MB): they are encoded one at a time into the
// writer rather than building the whole document in memory, indented, twice
// (encoding/json's Encoder marshals, then indents a copy). The bytes are
// those of json.Encoder with two-space indentation.
func (JSON) Write(w io.Writer, r *Report) error {
	shell := *r
	shell.Findings = nil
	head, err := marshalIndent(&shell, "")
	if err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	// Findings is encoded as null in the shell; swap it for the hole. The
	// key appears once at the top level: nested "findings" keys are counts.
	null := []byte("\n  \"findings\": null,\n")
	i := bytes.Index(head, null)
	if i < 0 {
		return fmt.Errorf("write json: findings field not found")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head[:i])
	if len(r.Findings) == 0 {
		bw.WriteString("\n  \"findings\": [],\n")
	} else {
		bw.WriteString("\n  \"findings\": [\n")
		var buf bytes.Buffer
		enc := newEncoder(&buf, "    ")
		for k := range r.Findings {
			buf.Reset()
			if err := enc.Encode(&r.Findings[k]); err != nil {
				return fmt.Errorf("write json: %w", err)
			}
			bw.WriteString("    ")
			bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
			if k < len(r.Findings)-1 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
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
