// Package runtimetest proves the live audit on real container runtimes: a
// private Docker Engine (Debian's docker.io, runc) and gVisor (runsc) start
// containers in the configurations agents run in, the static binary audits
// each from inside, and what it reports is compared with the runtime's own
// record (the Engine API's inspect). It holds only tests and their helpers.
package runtimetest
