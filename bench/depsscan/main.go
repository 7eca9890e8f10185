// Command depsscan drives collectors/deps outside the CLI for the
// benchmark script bench/deps-vs-trivy.sh: it generates the large
// package-lock.json pair, builds the trivy database from the YAML advisory
// fixtures (never from the network), and runs one scan. It is a bench tool,
// not part of sandbox-audit.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"

	fixtures "github.com/aquasecurity/bolt-fixtures"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/collectors/deps"
)

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: depsscan gen|mkdb|scan [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "mkdb":
		err = mkdb(os.Args[2:])
	case "scan":
		err = scan(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "depsscan:", err)
		os.Exit(2)
	}
}

// gen prints a lockfileVersion 3 package-lock.json: n packages, the first
// bump of them one patch up, and add new ones (lodash@4.17.20 among them).
func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	n := fs.Int("n", 2000, "packages")
	bump := fs.Int("bump", 0, "packages moved one patch up")
	add := fs.Int("add", 0, "packages added")
	_ = fs.Parse(args)
	_, err := os.Stdout.Write(corpus.PackageLock(*n, *bump, *add))
	return err
}

// mkdb builds trivy.db from the YAML fixtures with the bolt-fixtures loader
// trivy-db's own dbtest uses, plus the metadata.json trivy reads.
func mkdb(args []string) error {
	fs := flag.NewFlagSet("mkdb", flag.ExitOnError)
	src := fs.String("fixtures", "fixtures/deps/trivy-db", "YAML advisory fixtures")
	out := fs.String("out", "", "db dir to create (trivy.db, metadata.json)")
	_ = fs.Parse(args)
	if *out == "" {
		return errors.New("mkdb: -out is required")
	}
	files, err := filepath.Glob(filepath.Join(*src, "*.yaml"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("mkdb: no fixtures in %s", *src)
	}
	sort.Strings(files)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	loader, err := fixtures.New(filepath.Join(*out, "trivy.db"), files)
	if err != nil {
		return fmt.Errorf("mkdb: %w", err)
	}
	if err := loader.Load(); err != nil {
		return fmt.Errorf("mkdb: %w", err)
	}
	if err := loader.Close(); err != nil {
		return fmt.Errorf("mkdb: %w", err)
	}
	meta := `{"Version":2,"NextUpdate":"2099-01-01T00:00:00Z","UpdatedAt":"2026-11-01T00:00:00Z","DownloadedAt":"2026-11-01T00:00:00Z"}`
	return os.WriteFile(filepath.Join(*out, "metadata.json"), []byte(meta), 0o644)
}

func scan(args []string) error {
	fs := flag.NewFlagSet("scan", flag.ExitOnError)
	repo := fs.String("repo", ".", "directory inside a git repository")
	base := fs.String("base", "", "base revision")
	head := fs.String("head", "", "head revision (empty: work tree)")
	db := fs.String("db", "", "trivy cache or db dir")
	_ = fs.Parse(args)
	d, errs, err := deps.Scan(context.Background(), deps.Options{Repo: *repo, Base: *base, Head: *head, DBDir: *db})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"deps": d, "errors": errs})
}
