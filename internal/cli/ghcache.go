package cli

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/sandbox-audit/sandbox-audit/collectors/github"
)

// ghCacheFlags are --github-cache and --no-github-cache: where GitHub's
// answers are kept between runs, so that a repeated audit asks with their
// ETags and an unchanged answer costs no rate limit.
type ghCacheFlags struct {
	dir string
	off bool
}

func (g *ghCacheFlags) add(f *pflag.FlagSet) {
	f.StringVar(&g.dir, "github-cache", "", "where GitHub's answers are kept between runs and asked for again with their ETags (default: the user's cache directory/sandbox-audit/github; never the token)")
	f.BoolVar(&g.off, "no-github-cache", false, "keep no GitHub answer between runs")
}

func (g *ghCacheFlags) validate() error {
	if g.off && g.dir != "" {
		return usageError("--github-cache and --no-github-cache: give one")
	}
	return nil
}

// open is the cache the flags ask for (nil: none). Without --github-cache,
// a user cache directory that cannot be made means no cache: it only
// saves requests.
func (g *ghCacheFlags) open() (*github.Cache, error) {
	if g.off {
		return nil, nil
	}
	if g.dir != "" {
		c, err := github.OpenCache(g.dir, 0)
		if err != nil {
			return nil, usageError("--github-cache: %v", err)
		}
		return c, nil
	}
	base, err := os.UserCacheDir()
	if err == nil {
		var c *github.Cache
		if c, err = github.OpenCache(filepath.Join(base, "sandbox-audit", "github"), 0); err == nil {
			return c, nil
		}
	}
	slog.Debug("no github cache", "reason", err)
	return nil, nil
}
