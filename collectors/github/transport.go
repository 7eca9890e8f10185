package github

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// transport waits out GitHub's rate limits: a secondary limit (403 or 429
// with Retry-After) and an exhausted primary limit (X-RateLimit-Remaining 0
// until X-RateLimit-Reset) are waited for, up to maxWait each, and the
// request (a GET) sent again, at most maxRetries times. A longer wait is
// returned to the caller as GitHub's answer: the fact stays unknown.
type transport struct {
	base http.RoundTripper
	// sleep waits, or returns false when the request's context ends.
	sleep func(req *http.Request, d time.Duration) bool
	now   func() time.Time
	// sem, when set, bounds the requests in flight across every user of
	// the transport (a fleet's targets share one).
	sem chan struct{}
}

// NewClient is an HTTP client for the API that waits out rate limits and
// holds at most inFlight requests at once (0: no bound), for one process's
// every target.
func NewClient(inFlight int) *http.Client {
	// Each attempt has its own deadline for the answer to start; a
	// client-wide timeout would also cover the rate-limit waits (GitHub's
	// secondary limit asks for 60 s) and the wait for a slot.
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.ResponseHeaderTimeout = 30 * time.Second
	t := &transport{base: base}
	if inFlight > 0 {
		t.sem = make(chan struct{}, inFlight)
	}
	return &http.Client{Transport: t}
}

const (
	maxRetries = 3
	maxWait    = 60 * time.Second
)

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	for try := 0; ; try++ {
		if t.sem != nil {
			select {
			case t.sem <- struct{}{}:
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		resp, err := t.base.RoundTrip(req)
		if t.sem != nil {
			// The slot is held until the answer is read: the body is
			// read by the client after RoundTrip returns.
			if err != nil {
				<-t.sem
			} else {
				resp.Body = &release{ReadCloser: resp.Body, sem: t.sem}
			}
		}
		if err != nil || try >= maxRetries || req.Method != http.MethodGet {
			return resp, err
		}
		d, limited := t.wait(resp)
		if !limited || d > maxWait {
			return resp, nil
		}
		resp.Body.Close()
		if !t.doSleep(req, d) {
			return nil, req.Context().Err()
		}
	}
}

// wait says whether resp is a rate limit and how long to wait.
func (t *transport) wait(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return time.Duration(n) * time.Second, true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if n, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			now := time.Now
			if t.now != nil {
				now = t.now
			}
			return max(0, time.Unix(n, 0).Sub(now())) + time.Second, true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return time.Second, true
	}
	return 0, false
}

func (t *transport) doSleep(req *http.Request, d time.Duration) bool {
	if t.sleep != nil {
		return t.sleep(req, d)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-req.Context().Done():
		return false
	}
}

// release frees a request's slot when its body is read to the end or
// closed, whichever comes first: go-github reads an error's body (its
// first MiB) and replaces it without closing it; bounded closes it.
type release struct {
	io.ReadCloser
	sem  chan struct{}
	once sync.Once
}

func (r *release) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err != nil {
		r.free()
	}
	return n, err
}

func (r *release) Close() error {
	err := r.ReadCloser.Close()
	r.free()
	return err
}

func (r *release) free() { r.once.Do(func() { <-r.sem }) }

// Bounds of an answer's body (variables, for tests). A JSON answer is at
// most maxBody bytes (GitHub's largest, a recursive tree, is at most
// 7 MB); a blob is at most the file size cap (withLimit). The header
// timeout (NewClient) does not cover the body: a body is read within
// bodyTimeout, and no wait for its next bytes lasts more than bodyIdle,
// or the answer is an error.
var (
	maxBody     int64 = 16 << 20
	bodyIdle          = 30 * time.Second
	bodyTimeout       = 2 * time.Minute
)

type limitKey struct{}

// withLimit caps the answers to ctx's requests at n bytes.
func withLimit(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, limitKey{}, n)
}

// bounded is the transport every API client of the package uses (newClient
// puts it under go-github's, whatever http.Client the caller gave). It
// refuses a request to any origin but the API's before it is sent:
// go-github adds the token to every request, a redirect's included, so a
// redirect elsewhere (Location: http://other:port/) would carry it; this
// refuses rather than strips, since an answer from elsewhere is no answer
// of the API. And it bounds each answer's body in size and in time.
type bounded struct {
	base   http.RoundTripper
	origin string // scheme://host:port of the API
}

// origin is u's scheme://host:port, the port explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

func (t *bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	if o := origin(req.URL); o != t.origin {
		return nil, fmt.Errorf("a request to %s refused: the token goes only to the API, %s (a redirect to another host?)", o, t.origin)
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	resp, err := base.RoundTrip(req.WithContext(ctx))
	if err != nil || resp.Body == nil {
		cancel(nil)
		return resp, err
	}
	// The reason phrase is the server's text, and go-github quotes it in
	// some errors ("unexpected status code: 500 …").
	resp.Status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	limit := maxBody
	if n, ok := req.Context().Value(limitKey{}).(int64); ok {
		limit = n
	}
	b := &body{rc: resp.Body, ctx: ctx, cancel: cancel, limit: limit, deadline: time.Now().Add(bodyTimeout)}
	b.timer = time.AfterFunc(min(bodyIdle, bodyTimeout), b.expire)
	resp.Body = b
	return resp, nil
}

// errSlow ends an answer whose body did not come in time.
var errSlow = errors.New("slow answer")

// body is an answer's body, bounded: past limit bytes, or once its time
// is out, reading it is an error (never a silently shortened answer), and
// the request is ended.
type body struct {
	rc       io.ReadCloser
	ctx      context.Context
	cancel   context.CancelCauseFunc
	timer    *time.Timer
	deadline time.Time
	n, limit int64
	once     sync.Once
}

func (b *body) Read(p []byte) (int, error) {
	if b.n > b.limit {
		return 0, b.tooLarge()
	}
	if left := b.limit - b.n + 1; int64(len(p)) > left {
		p = p[:left] // one byte past the limit tells a larger answer
	}
	n, err := b.rc.Read(p)
	b.n += int64(n)
	switch {
	case b.n > b.limit:
		b.finish()
		return n - int(b.n-b.limit), b.tooLarge()
	case err != nil:
		if errors.Is(context.Cause(b.ctx), errSlow) {
			err = fmt.Errorf("the answer did not come in time (no data for %s, or not all of it in %s)", bodyIdle, bodyTimeout)
		}
		b.finish()
		return n, err
	case n > 0:
		b.timer.Reset(min(bodyIdle, time.Until(b.deadline)))
	}
	return n, nil
}

// expire ends a stalled answer, read or not: go-github does not close an
// error's body, whose request would hold its slot (transport) forever.
func (b *body) expire() {
	b.cancel(errSlow)
	b.end()
}

// finish ends the answer from the reader's side.
func (b *body) finish() {
	b.timer.Stop()
	b.end()
}

func (b *body) end() {
	b.once.Do(func() {
		b.rc.Close()
		b.cancel(nil)
	})
}

func (b *body) tooLarge() error {
	return fmt.Errorf("the answer is larger than %d bytes: not read", b.limit)
}

func (b *body) Close() error {
	b.finish()
	return nil
}
