// Command gencorpus writes the benchmark corpus: gencorpus DIR [N].
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gencorpus DIR [N=5000]")
		os.Exit(2)
	}
	n := 5000
	if len(os.Args) > 2 {
		v, err := strconv.Atoi(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		n = v
	}
	if err := corpus.Generate(os.Args[1], n, 1); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
