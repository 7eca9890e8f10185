package github

import (
	"io"
	"net/http"
	"strconv"
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
// closed, whichever comes first: go-github reads an error's body to the
// end and replaces it without closing it.
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
