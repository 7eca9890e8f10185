package yamlpos

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestErrLine(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"line in the message", "a: 1\nb: @x\n", 2},
		{"unterminated quote on the first line", `"`, 1},
		{"unterminated quote later", "a: 1\nb: 2\nc: \"x\n", 3},
		{"control character", "a: 1\nb: \x01\n", 2},
		{"invalid UTF-8", "a: 1\nb: 2\nc: \xff\xfe\n", 3},
		{"duplicate key", "a: 1\na: 2\n", 2},
		{"BOM then a tab indent", "\ufeffa:\n\tb: 1\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := decodeAll([]byte(tt.src))
			if err == nil {
				t.Fatalf("%q parses", tt.src)
			}
			if got := ErrLine(err, []byte(tt.src)); got != tt.want {
				t.Errorf("ErrLine(%v) = %d, want %d", err, got, tt.want)
			}
		})
	}
}

func decodeAll(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
