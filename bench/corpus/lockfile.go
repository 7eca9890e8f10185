package corpus

import (
	"encoding/json"
	"fmt"
)

// PackageLock returns a lockfileVersion 3 package-lock.json of n packages,
// the first bump of them one patch up, and add new ones (lodash@4.17.20,
// vulnerable, first among them; every fifth with an install script): the
// dependency diff's benchmark input, for the Go benchmark and the
// side-by-side script alike.
func PackageLock(n, bump, add int) []byte {
	pkgs := map[string]any{"": map[string]any{"name": "big", "version": "1.0.0"}}
	entry := func(name, version string) map[string]any {
		return map[string]any{
			"version":      version,
			"resolved":     fmt.Sprintf("https://registry.npmjs.org/%s/-/%s-%s.tgz", name, name, version),
			"integrity":    fmt.Sprintf("sha512-%086d==", len(name)),
			"dependencies": map[string]string{"dep-a": "^1.0.0", "dep-b": "^2.0.0"},
		}
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("pkg-%04d", i)
		v := fmt.Sprintf("1.%d.0", i%17)
		if i < bump {
			v = fmt.Sprintf("1.%d.1", i%17)
		}
		pkgs["node_modules/"+name] = entry(name, v)
	}
	for i := 0; i < add; i++ {
		name := fmt.Sprintf("new-%03d", i)
		if i == 0 {
			name = "lodash"
		}
		e := entry(name, "4.17.20")
		e["hasInstallScript"] = i%5 == 0
		pkgs["node_modules/"+name] = e
	}
	b, err := json.MarshalIndent(map[string]any{
		"name": "big", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": pkgs,
	}, "", "  ")
	if err != nil {
		panic(err) // maps of strings and numbers always encode
	}
	return append(b, '\n')
}
