package corpus

import (
	"bytes"
	"fmt"
)

// ComposeServices returns one compose file of n services, about 107 bytes
// each (70,000 services make the 7.5 MB file of issue 13): image, user and
// network on every service; every 10th privileged, every 7th mounting the
// Docker socket, every 5th with a published port, so the rules have work.
func ComposeServices(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 110)
	b.WriteString("services:\n")
	for i := range n {
		fmt.Fprintf(&b, "  svc%05d:\n    image: registry.example.com/app%05d:1.%d\n    user: \"1000\"\n    networks: [net%d]\n", i, i, i%10, i%4)
		switch {
		case i%10 == 0:
			b.WriteString("    privileged: true\n")
		case i%7 == 0:
			b.WriteString("    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n")
		case i%5 == 0:
			b.WriteString("    ports: [\"8080:80\"]\n")
		}
	}
	b.WriteString("networks:\n  net0: {internal: true}\n  net1: {}\n  net2: {}\n  net3: {}\n")
	return b.Bytes()
}
