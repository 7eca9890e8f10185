package policies

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Fingerprint gives every finding an id that survives line moves and
// unrelated edits: it hashes the rule, the file and the message (which names
// the resource and the fact, never a line). Identical findings in one file are
// told apart by their order of appearance.
func Fingerprint(fs []rules.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.RuleID != b.RuleID {
			return a.RuleID < b.RuleID
		}
		return a.Message < b.Message
	})
	seen := map[string]int{}
	for i := range fs {
		fp := FingerprintN(fs[i].RuleID, fs[i].File, fs[i].Message, 1)
		seen[fp]++
		if n := seen[fp]; n > 1 {
			fp = fmt.Sprintf("%s-%d", fp, n)
		}
		fs[i].Fingerprint = fp
	}
}

// FingerprintN is the fingerprint Fingerprint gives the n-th (from 1) of
// the findings of one rule, file and message.
func FingerprintN(rule, file, message string, n int) string {
	sum := sha256.Sum256([]byte(rule + "\x00" + file + "\x00" + message))
	fp := hex.EncodeToString(sum[:8])
	if n > 1 {
		fp = fmt.Sprintf("%s-%d", fp, n)
	}
	return fp
}
