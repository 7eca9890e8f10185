package live

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"net"
	"path"
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

var privateKeyBlock = regexp.MustCompile(`(?s)-----BEGIN ([A-Z ]*)PRIVATE KEY-----(.*?)-----END [A-Z ]*PRIVATE KEY-----`)

// sshKeys reports private keys in ~/.ssh, noting passphrase protection.
func (c *collector) sshKeys(home string) {
	dir := path.Join(home, ".ssh")
	ents, err := c.fs.readDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".pub") || strings.HasPrefix(n, "known_hosts") || strings.HasPrefix(n, "authorized_keys") || n == "config" || n == "environment" {
			continue
		}
		p := path.Join(dir, n)
		if e.IsDir() {
			continue
		}
		data, err := c.fs.readFile(p)
		if err != nil {
			c.miss("credentials", p, err)
			continue
		}
		m := privateKeyBlock.FindSubmatch(data)
		if m == nil {
			continue
		}
		lc := model.LiveCred{Source: "file", Name: p, CanPush: true,
			SecretRef: model.SecretRef{Kind: "ssh-private-key", Lifetime: "long", Fingerprint: secrets.Fingerprint(string(bytes.TrimSpace(m[0])))}}
		if keyEncrypted(string(m[1]), m[2]) {
			lc.Note = "passphrase-protected"
		} else {
			lc.Note = "no passphrase"
		}
		c.addCred(lc, "file "+p+" (SSH private key, "+lc.Note+")")
	}
}

// keyEncrypted reads the PEM headers or, for OpenSSH keys, the cipher
// name that follows the "openssh-key-v1" magic.
func keyEncrypted(label string, body []byte) bool {
	if strings.Contains(label, "ENCRYPTED") || bytes.Contains(body, []byte("ENCRYPTED")) {
		return true
	}
	if label != "OPENSSH " {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.Join(bytes.Fields(body), nil)))
	magic := []byte("openssh-key-v1\x00")
	if err != nil || !bytes.HasPrefix(raw, magic) || len(raw) < len(magic)+4 {
		return false
	}
	raw = raw[len(magic):]
	n := binary.BigEndian.Uint32(raw)
	return int(n) <= len(raw)-4 && string(raw[4:4+n]) != "none"
}

// sshAgent reports a forwarded SSH agent: whoever holds the socket can
// sign as the user's keys (push, log in) for as long as it stays.
func (c *collector) sshAgent(ctx context.Context) {
	sock := c.env.get("SSH_AUTH_SOCK")
	if !path.IsAbs(sock) {
		return
	}
	fi, err := c.fs.stat(sock)
	if err != nil || fi.Mode()&fs.ModeSocket == 0 && c.fs.real() {
		return // a stale variable: no agent to use
	}
	lc := model.LiveCred{Source: "ssh-agent", Name: "SSH_AUTH_SOCK", CanPush: true,
		SecretRef: model.SecretRef{Kind: "ssh-agent", Lifetime: "session", Fingerprint: secrets.Fingerprint("ssh-agent:" + sock)}}
	lc.Note = "agent socket at " + sock
	if fi.Mode()&fs.ModeSocket != 0 && !c.opt.SkipSocketProbe {
		if n, err := c.agentKeys(ctx, sock); err != nil {
			lc.Note += "; not answering: " + shortErr(err)
		} else {
			lc.Note += fmt.Sprintf("; holds %d key(s)", n)
		}
	}
	c.addCred(lc, "SSH_AUTH_SOCK forwards an SSH agent ("+sock+")")
}

// agentKeys asks the agent to list identities (a read-only request) and
// returns how many it holds.
func (c *collector) agentKeys(ctx context.Context, sock string) (int, error) {
	hp, err := c.fs.resolve(sock, true)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, min(socketTimeout, c.opt.ProbeTimeout))
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "unix", hp)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// SSH_AGENTC_REQUEST_IDENTITIES (11); the answer is type 12 + count.
	if _, err := conn.Write([]byte{0, 0, 0, 1, 11}); err != nil {
		return 0, err
	}
	var hdr [9]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return 0, err
	}
	if hdr[4] != 12 {
		return 0, fmt.Errorf("unexpected agent answer type %d", hdr[4])
	}
	return int(binary.BigEndian.Uint32(hdr[5:9])), nil
}
