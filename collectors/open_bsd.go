//go:build unix && !linux

package collectors

import "os"

func openBeneath(dirfd int, rel string) (*os.File, error) { return openWalk(dirfd, rel) }
