package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// BenchmarkInit measures what the first Scan of a process pays: compiling
// our rules and gitleaks' default set. The read-* sub-benchmarks compare
// reading gitleaks.toml through viper (what gitleaks does) and through
// BurntSushi/toml; translate is config.Translate (the regex compilation).
func BenchmarkInit(b *testing.B) {
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			if e := buildEngine(); e.err != nil {
				b.Fatal(e.err)
			}
		}
	})
	b.Run("read-viper", func(b *testing.B) {
		for b.Loop() {
			v := viper.New()
			v.SetConfigType("toml")
			var vc config.ViperConfig
			if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
				b.Fatal(err)
			}
			if err := v.Unmarshal(&vc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read-toml", func(b *testing.B) {
		for b.Loop() {
			var vc config.ViperConfig
			if _, err := toml.Decode(config.DefaultConfig, &vc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("translate", func(b *testing.B) {
		var vc config.ViperConfig
		if _, err := toml.Decode(config.DefaultConfig, &vc); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			c := vc // Translate lower-cases keywords in place; harmless to repeat
			if _, err := c.Translate(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("own-rules", func(b *testing.B) {
		for b.Loop() {
			ownRules()
		}
	})
}

// cleanText is 1 KB of ordinary configuration prose: it holds keywords
// ("key", "token", "auth", "api") but no secret.
var cleanText = strings.Repeat("The agent reads its API settings from the environment; the auth token is "+
	"forwarded from ${GITHUB_TOKEN} and the key file lives at /run/secrets/key. "+
	"Run npx -y @modelcontextprotocol/server-github with the image ghcr.io/acme/agent:1.4.2. ", 5)[:1024]

func BenchmarkScanClean(b *testing.B) {
	getEngine()
	for name, text := range map[string]string{"short": "production", "url": "https://api.github.com/repos/acme/agent", "1KB": cleanText} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if ms := Scan(text); len(ms) != 0 {
					b.Fatalf("found %+v", ms)
				}
			}
		})
	}
}

func BenchmarkScanSecret(b *testing.B) {
	getEngine()
	f := newFaker(9)
	tok := f.ghp()
	text := cleanText[:900] + " GH_TOKEN=" + tok + " url=https://u:" + f.password() + "@h.corp/x"
	for name, text := range map[string]string{"short": tok, "1KB": text} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if ms := Scan(text); len(ms) == 0 {
					b.Fatal("nothing found")
				}
			}
		})
	}
}

func BenchmarkDetectNamed(b *testing.B) {
	getEngine()
	for name, kv := range map[string][2]string{"clean": {"NODE_ENV", "production"}, "generic": {"API_TOKEN", newFaker(10).hex(40)}} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				DetectNamed(kv[0], kv[1])
			}
		})
	}
}

// corpus is the repository's own sample configurations (every fixture tree
// but the planted secrets and the fake /proc trees): the ordinary config a
// scan reads, as whole files and line by line (collectors mostly hand Scan
// one value at a time).
func corpus(b *testing.B) (files, lines []string, size int) {
	b.Helper()
	for _, dir := range []string{"claude", "codex", "compose", "cursor", "devcontainer", "dockerfile", "gemini",
		"gitconfig", "kubernetes", "mcp", "workflows", "scenarios", "deps"} {
		err := filepath.WalkDir(filepath.Join("../../fixtures", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, string(data))
			lines = append(lines, strings.Split(string(data), "\n")...)
			size += len(data)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return files, lines, size
}

// BenchmarkScanCorpus gives Scan's throughput (MB/s) on ordinary config.
func BenchmarkScanCorpus(b *testing.B) {
	getEngine()
	files, lines, size := corpus(b)
	for name, texts := range map[string][]string{"files": files, "lines": lines} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, t := range texts {
					Scan(t)
				}
			}
		})
	}
}
