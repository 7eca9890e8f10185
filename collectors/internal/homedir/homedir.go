// Package homedir tells whether a scanned path lies in a home directory,
// which makes an agent's settings there a user's, not a project's.
package homedir

import "strings"

// In reports a path inside a home directory of a scanned root filesystem:
// home/<user>/…, Users/<user>/…, or root/… at the scan's root.
func In(p string) bool {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if (s == "home" || s == "Users") && i+2 < len(parts) {
			return true
		}
		if s == "root" && i == 0 && len(parts) > 2 {
			return true
		}
	}
	return false
}
