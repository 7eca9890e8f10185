package shell

import "testing"

func TestRunsArgs(t *testing.T) {
	for src, want := range map[string]int{
		"#!/bin/sh\nset -e\nexec \"$@\"\n":                    3,
		"#!/bin/sh\n\"$@\"\n":                                 2,
		"#!/bin/sh\neval \"$*\"\n":                            2,
		"#!/bin/sh\nexec gosu node \"$@\"\n":                  0, // runs them as node, through gosu
		"#!/bin/sh\nexec sleep infinity\n":                    0,
		"#!/bin/sh\nf() { \"$@\"; }\nf echo hi\n":             0, // the function's arguments, which the script names
		"#!/bin/sh\nif [ -n \"$1\" ]; then exec \"$@\"; fi\n": 2,
	} {
		calls, err := Calls([]byte(src), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := RunsArgs(calls); got != want {
			t.Errorf("RunsArgs(%q) = %d, want %d", src, got, want)
		}
	}
}
