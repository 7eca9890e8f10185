package live

import (
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// proxyVars are the variables HTTP clients honour, in both cases.
var proxyVars = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}

// network records the passive facts: no packet is sent.
func (c *collector) network() {
	n := &c.live.Network
	for _, v := range proxyVars {
		if val := c.env.get(v); val != "" {
			n.Proxies = append(n.Proxies, model.Proxy{Var: v, Host: proxyHost(val)})
		}
	}
	for _, v := range []string{"NO_PROXY", "no_proxy"} {
		for _, h := range strings.Split(c.env.get(v), ",") {
			if h = strings.TrimSpace(h); h != "" {
				n.NoProxy = append(n.NoProxy, h)
			}
		}
	}
	if data, err := c.fs.readFile("/etc/resolv.conf"); err != nil {
		c.miss("network", "/etc/resolv.conf", err)
	} else {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "nameserver" {
				n.Resolvers = append(n.Resolvers, f[1])
			}
		}
	}
	c.routes()
	n.Interfaces = c.interfaces()
	for _, p := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := c.fs.readFile(p)
		if err != nil {
			c.miss("network", p, err)
			continue
		}
		n.Listening = append(n.Listening, listeners(string(data))...)
	}
	sort.Slice(n.Listening, func(i, j int) bool { return n.Listening[i].Addr < n.Listening[j].Addr })
}

// proxyHost keeps host:port of a proxy URL and drops its credentials.
func proxyHost(v string) string {
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return "(unparsable)"
	}
	return u.Host
}

func (c *collector) interfaces() []string {
	data, err := c.fs.readFile("/proc/net/dev")
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && !strings.Contains(name, "|") {
			out = append(out, strings.TrimSpace(name))
		}
	}
	sort.Strings(out)
	return out
}

// routes reads default routes from /proc/net/route and ipv6_route,
// skipping loopback and reject routes (an unreachable ::/0 on lo).
func (c *collector) routes() {
	n := &c.live.Network
	if data, err := c.fs.readFile("/proc/net/route"); err != nil {
		c.miss("network", "/proc/net/route", err)
	} else {
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 8 || f[1] != "00000000" || f[7] != "00000000" {
				continue
			}
			flags, _ := strconv.ParseUint(f[3], 16, 32)
			if flags&0x1 == 0 || flags&0x200 != 0 { // RTF_UP, RTF_REJECT
				continue
			}
			n.DefaultRoutes = append(n.DefaultRoutes, model.Route{Family: "ipv4", Iface: f[0], Gateway: hexIPv4(f[2])})
		}
	}
	data, err := c.fs.readFile("/proc/net/ipv6_route")
	if err != nil {
		c.miss("network", "/proc/net/ipv6_route", err)
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != strings.Repeat("0", 32) || f[1] != "00" || f[9] == "lo" {
			continue
		}
		flags, _ := strconv.ParseUint(f[8], 16, 32)
		if flags&0x1 == 0 || flags&0x200 != 0 {
			continue
		}
		n.DefaultRoutes = append(n.DefaultRoutes, model.Route{Family: "ipv6", Iface: f[9], Gateway: hexIPv6(f[4])})
	}
}

func hexIPv4(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 4 {
		return h
	}
	// /proc/net/route prints the address in host (little-endian) order.
	v := binary.LittleEndian.Uint32(b)
	ip := make(net.IP, 4)
	binary.BigEndian.PutUint32(ip, v)
	return ip.String()
}

func hexIPv6(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 16 {
		return h
	}
	return net.IP(b).String()
}

// listeners parses /proc/net/tcp{,6} for sockets in LISTEN (0A) state.
func listeners(data string) []model.Listener {
	var out []model.Listener
	for _, line := range strings.Split(data, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[3] != "0A" {
			continue
		}
		addr, port, ok := strings.Cut(f[1], ":")
		if !ok {
			continue
		}
		ip := procIP(addr)
		p, err := strconv.ParseUint(port, 16, 16)
		if ip == nil || err != nil {
			continue
		}
		out = append(out, model.Listener{Addr: net.JoinHostPort(ip.String(), strconv.Itoa(int(p))), Loopback: ip.IsLoopback()})
	}
	return out
}

// procIP decodes /proc/net/tcp addresses: 32-bit words in host order.
func procIP(h string) net.IP {
	b, err := hex.DecodeString(h)
	if err != nil || (len(b) != 4 && len(b) != 16) {
		return nil
	}
	ip := make(net.IP, len(b))
	for i := 0; i < len(b); i += 4 {
		binary.BigEndian.PutUint32(ip[i:], binary.LittleEndian.Uint32(b[i:]))
	}
	return ip
}
