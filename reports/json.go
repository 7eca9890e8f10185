package reports

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes the report as the documented JSON contract.
type JSON struct{}

var _ Writer = JSON{}

// Write implements Writer.
func (JSON) Write(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
