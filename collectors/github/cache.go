package github

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Cache keeps GitHub's answers that carry a validator (ETag or
// Last-Modified) in a directory, so that asking again sends If-None-Match
// (If-Modified-Since) and an unchanged answer comes back as 304 Not
// Modified, which GitHub does not count against the primary rate limit. A
// blob, named by its content's hash, is served from the cache with no
// request at all.
//
// An entry's name is a hash of the request's Authorization header (the
// token), its Accept and API version headers and its URL: two tokens never
// share an answer, and neither the token nor the URL is written anywhere.
// Its content is the answer's body (what the token could read: settings,
// the configuration files fetched), its validators, content type and Link
// header, in a file only the user can read. The directory is bounded: past
// its size the entries used least recently are removed.
type Cache struct {
	dir string
	max int64

	mu     sync.Mutex
	size   int64 // of the entries, as this process knows them
	loaded bool

	// hits: 304 answers served from the cache; fresh: entries served
	// without a request; stored: answers written.
	hits, fresh, stored atomic.Int64
}

// DefaultCacheSize bounds a cache directory (OpenCache with 0).
const DefaultCacheSize = 256 << 20

// OpenCache opens the cache directory dir, bounded to max bytes (0:
// DefaultCacheSize). The directory is made (0700) when the first answer
// is kept.
func OpenCache(dir string, max int64) (*Cache, error) {
	if max <= 0 {
		max = DefaultCacheSize
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("open github cache: %s is not a directory", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open github cache: %w", err)
	}
	return &Cache{dir: dir, max: max}, nil
}

// CacheStats count what the cache saved.
type CacheStats struct {
	NotModified int64 // 304 answers served from the cache
	Fresh       int64 // answers served without a request (blobs)
	Stored      int64 // answers written
}

// Stats says what the cache saved so far.
func (c *Cache) Stats() CacheStats {
	return CacheStats{NotModified: c.hits.Load(), Fresh: c.fresh.Load(), Stored: c.stored.Load()}
}

// entryMeta is an entry's first line; the body follows it.
type entryMeta struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	ContentType  string `json:"content_type,omitempty"`
	Link         string `json:"link,omitempty"`
}

type entry struct {
	entryMeta
	body []byte
}

// key names the entry of req's answer.
func (c *Cache) key(req *http.Request) string {
	h := sha256.New()
	for _, s := range []string{"sandbox-audit github cache 1", req.Header.Get("Authorization"), req.Header.Get("Accept"), req.Header.Get("X-GitHub-Api-Version"), req.URL.String()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key[:2], key) }

// get reads an entry (nil: none, or one that cannot be read, removed).
func (c *Cache) get(key string) *entry {
	p := c.path(key)
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, maxBody+64<<10))
	line, err := br.ReadBytes('\n')
	var e entry
	if err == nil {
		err = json.Unmarshal(line, &e.entryMeta)
	}
	if err == nil {
		e.body, err = io.ReadAll(br)
	}
	if err != nil || (e.ETag == "" && e.LastModified == "") {
		os.Remove(p)
		return nil
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // recently used: evicted last
	return &e
}

// put writes an entry, beside its place and renamed over it, so that a
// reader (another process) sees the old entry or the new one whole.
func (c *Cache) put(key string, e *entry) {
	if int64(len(e.body)) > c.max/8 {
		return // one answer does not take the cache's room
	}
	meta, err := json.Marshal(e.entryMeta)
	if err != nil {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".entry-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(append(meta, '\n'))
	if err == nil {
		_, err = tmp.Write(e.body)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var old int64
	if st, serr := os.Stat(p); serr == nil {
		old = st.Size()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return
	}
	c.stored.Add(1)
	c.grew(int64(len(meta)+1+len(e.body)) - old)
}

// grew accounts for n more bytes and evicts the entries used least
// recently once the cache is past its bound, down to 90% of it.
func (c *Cache) grew(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.loaded {
		c.loaded = true
		c.size = 0
		for _, f := range c.entries() {
			c.size += f.size
		}
	} else {
		c.size += n
	}
	if c.size <= c.max {
		return
	}
	files := c.entries()
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	c.size = 0
	for _, f := range files {
		c.size += f.size
	}
	for _, f := range files {
		if c.size <= c.max/10*9 {
			break
		}
		if os.Remove(f.path) == nil {
			c.size -= f.size
		}
	}
}

type cacheFile struct {
	path string
	size int64
	used time.Time
}

// entryName is an entry's file name (a temporary file is not one).
var entryName = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (c *Cache) entries() []cacheFile {
	var out []cacheFile
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !entryName.MatchString(d.Name()) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			out = append(out, cacheFile{path: p, size: info.Size(), used: info.ModTime()})
		}
		return nil
	})
	return out
}

// immutablePath is a blob's: its name is its content's hash.
var immutablePath = regexp.MustCompile(`/repos/[^/]+/[^/]+/git/blobs/[0-9a-f]{40}([0-9a-f]{24})?$`)

// cached is the transport of a client with a cache: above bounded, so
// what it stores was read within bounded's limits.
type cached struct {
	base  http.RoundTripper
	cache *Cache
}

func (t *cached) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Header.Get("Range") != "" {
		return t.base.RoundTrip(req)
	}
	key := t.cache.key(req)
	e := t.cache.get(key)
	if e != nil && immutablePath.MatchString(req.URL.Path) {
		t.cache.fresh.Add(1)
		return e.response(req, nil), nil
	}
	if e != nil {
		req = req.Clone(req.Context())
		if e.ETag != "" {
			req.Header.Set("If-None-Match", e.ETag)
		} else {
			req.Header.Set("If-Modified-Since", e.LastModified)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusNotModified && e != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		t.cache.hits.Add(1)
		return e.response(req, resp), nil
	}
	etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if resp.StatusCode != http.StatusOK || (etag == "" && lm == "") || strings.Contains(strings.ToLower(resp.Header.Get("Cache-Control")), "no-store") {
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	t.cache.put(key, &entry{entryMeta: entryMeta{ETag: etag, LastModified: lm, ContentType: resp.Header.Get("Content-Type"), Link: resp.Header.Get("Link")}, body: body})
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// response is the entry as GitHub's answer to req: the stored body and
// headers, with those of the 304 that confirmed it (its rate limit).
func (e *entry) response(req *http.Request, notModified *http.Response) *http.Response {
	h := http.Header{}
	if notModified != nil {
		h = notModified.Header.Clone()
	}
	for k, v := range map[string]string{"Content-Type": e.ContentType, "Link": e.Link, "ETag": e.ETag, "Last-Modified": e.LastModified} {
		h.Del(k)
		if v != "" {
			h.Set(k, v)
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(e.body)))
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(e.body)), ContentLength: int64(len(e.body)), Request: req,
	}
}
