package secrets

// Planted is the planted-secrets tree for the end-to-end test (package
// secrets_test, which may import the CLI): each file's content, and each
// planted value with the file it is in.
func Planted() (files map[string]string, values map[string]string) {
	files, plants := plantedTree()
	values = map[string]string{}
	for _, p := range plants {
		values[p.value] = p.file
	}
	return files, values
}

// PlantedFaker draws more fake credentials of every kind, for values the
// end-to-end test plants at parse-error positions.
func PlantedFaker(seed uint64) func(kind string) string {
	f := newFaker(seed)
	return func(kind string) string {
		switch kind {
		case "ghp":
			return f.ghp()
		case "password":
			return f.password()
		case "hex":
			return f.hex(40)
		case "npm":
			return f.npm()
		case "anthropic":
			return f.anthropic("api03")
		}
		return f.s(alnum, 32)
	}
}
