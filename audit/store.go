package audit

import (
	"bytes"
	"compress/flate"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// storeBlock is how many bytes of fingerprints and messages a block of
// the finding store holds before it is compressed.
const storeBlock = 64 << 10

// storeChunk is how many findings one chunk of the store's list holds: the
// list grows a chunk at a time, never copied to twice its size.
const storeChunk = 4096

// findingStore holds a fleet scan's findings, settled (fingerprinted,
// waived, baselined), until the report is written (reports.FindingStore).
// What a rule says alike of all its findings is kept once, each file once,
// and the fingerprints and messages, most of the weight, in blocks
// compressed as they fill: the 50,000-file corpus's 140,000 findings take
// some 8 MB, where rules.Finding values with their messages took 45 MB.
//
// add takes the findings of files no earlier call had, in the order the
// fingerprinting left them (policies.Fingerprint: by file, line, rule,
// message); finish orders them as reports.SortFindings orders a whole
// scan's (severity, file, line, rule, stable), which, since each file's
// findings come in one call, is the order of the whole list settled and
// sorted at once.
type findingStore struct {
	blockSize int // storeBlock when 0 (tests set it small)

	texts  []storedText
	textAt map[storedText]int32
	sups   []*rules.Suppression
	supAt  map[rules.Suppression]int32
	files  []string
	chunks [][]storedFinding
	n      int

	blocks [][]byte // compressed
	sizes  []int    // each block's size, uncompressed
	cur    []byte   // the block being filled
	zw     *deflater

	order []int32 // finish's
	cache [4]struct {
		block int
		data  []byte
	}
	next int // the cache entry replaced next
	zr   io.ReadCloser
}

// storedText is what a rule says alike of all its findings.
type storedText struct {
	RuleID, Title, Property, Severity, Category, Remediation string
}

type storedFinding struct {
	text, sup, file, line int32 // sup: 1 + index in sups, 0 for none
	block                 int32
	off, msgN             uint32
	// fp is how the fingerprint is kept: n > 0 for the one
	// policies.Fingerprint gives the n-th finding alike in rule, file and
	// message (recomputed when read: 16 random hex digits do not
	// compress); fpStored (its length below) for another, kept in the
	// block before the message.
	fp uint32
}

// fpStored marks a fingerprint kept in the block: fp is fpStored | its
// length.
const fpStored = 1 << 31

func (s *findingStore) add(fs []rules.Finding) {
	if s.textAt == nil {
		s.textAt, s.supAt = map[storedText]int32{}, map[rules.Suppression]int32{}
		for i := range s.cache {
			s.cache[i].block = -1
		}
	}
	for i := range fs {
		f := &fs[i]
		t := storedText{f.RuleID, f.Title, f.Property, f.Severity, f.Category, f.Remediation}
		ti, ok := s.textAt[t]
		if !ok {
			ti = int32(len(s.texts))
			s.textAt[t] = ti
			s.texts = append(s.texts, t)
		}
		var si int32
		if f.Suppression != nil {
			if si, ok = s.supAt[*f.Suppression]; !ok {
				c := *f.Suppression
				s.sups = append(s.sups, &c)
				si = int32(len(s.sups))
				s.supAt[c] = si
			}
		}
		if len(s.files) == 0 || s.files[len(s.files)-1] != f.File {
			s.files = append(s.files, f.File)
		}
		size := s.blockSize
		if size == 0 {
			size = storeBlock
		}
		fp, kept := fingerprintN(f)
		if len(s.cur) > 0 && len(s.cur)+len(kept)+len(f.Message) > size {
			s.flush()
		}
		h := storedFinding{text: ti, sup: si, file: int32(len(s.files) - 1), line: int32(f.Line),
			block: int32(len(s.blocks)), off: uint32(len(s.cur)), msgN: uint32(len(f.Message)), fp: fp}
		s.cur = append(append(s.cur, kept...), f.Message...)
		if s.n%storeChunk == 0 {
			s.chunks = append(s.chunks, make([]storedFinding, 0, storeChunk))
		}
		c := &s.chunks[len(s.chunks)-1]
		*c = append(*c, h)
		s.n++
	}
}

// fingerprintN is how f's fingerprint is kept: the n of
// policies.FingerprintN that gives it, or the fingerprint itself.
func fingerprintN(f *rules.Finding) (uint32, string) {
	n := 1
	if i := strings.LastIndexByte(f.Fingerprint, '-'); i >= 0 {
		if v, err := strconv.Atoi(f.Fingerprint[i+1:]); err == nil && v > 1 && v < fpStored {
			n = v
		}
	}
	if policies.FingerprintN(f.RuleID, f.File, f.Message, n) == f.Fingerprint {
		return uint32(n), ""
	}
	return fpStored | uint32(len(f.Fingerprint)), f.Fingerprint
}

// flush compresses the block being filled.
func (s *findingStore) flush() {
	if s.zw == nil {
		s.zw = &deflater{}
	}
	s.blocks = append(s.blocks, s.zw.compress(s.cur))
	s.sizes = append(s.sizes, len(s.cur))
	s.cur = s.cur[:0]
}

// deflater compresses blocks with one flate writer (a writer holds about
// 1 MB): a fleet scan's finding store and workload log share one.
type deflater struct {
	w   *flate.Writer
	buf bytes.Buffer
}

func (d *deflater) compress(p []byte) []byte {
	d.buf.Reset()
	if d.w == nil {
		d.w, _ = flate.NewWriter(&d.buf, flate.BestSpeed)
	} else {
		d.w.Reset(&d.buf)
	}
	d.w.Write(p)
	d.w.Close()
	return bytes.Clone(d.buf.Bytes())
}

func (s *findingStore) at(i int32) *storedFinding { return &s.chunks[i/storeChunk][i%storeChunk] }

// finish closes the store and puts the findings in the report's order.
func (s *findingStore) finish() {
	if len(s.cur) > 0 {
		s.flush()
	}
	s.cur = nil
	s.order = make([]int32, s.n)
	for i := range s.order {
		s.order[i] = int32(i)
	}
	rank := make([]int, len(s.texts))
	for i, t := range s.texts {
		rank[i] = rules.SeverityRank(t.Severity)
	}
	sort.SliceStable(s.order, func(i, j int) bool {
		a, b := s.at(s.order[i]), s.at(s.order[j])
		if ra, rb := rank[a.text], rank[b.text]; ra != rb {
			return ra > rb
		}
		if a.file != b.file {
			if fa, fb := s.files[a.file], s.files[b.file]; fa != fb {
				return fa < fb
			}
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return s.texts[a.text].RuleID < s.texts[b.text].RuleID
	})
}

// Len implements reports.FindingStore.
func (s *findingStore) Len() int { return s.n }

// Each implements reports.FindingStore: the findings in the report's order.
func (s *findingStore) Each(fn func(f *rules.Finding) error) error {
	var f rules.Finding
	for _, i := range s.order {
		h := s.at(i)
		data, err := s.block(int(h.block))
		if err != nil {
			return err
		}
		t := &s.texts[h.text]
		fpN := uint32(0)
		if h.fp&fpStored != 0 {
			fpN = h.fp &^ fpStored
		}
		text := data[h.off : h.off+fpN+h.msgN]
		f = rules.Finding{RuleID: t.RuleID, Title: t.Title, Property: t.Property, Severity: t.Severity, Category: t.Category,
			Message: string(text[fpN:]), File: s.files[h.file], Line: int(h.line), Fingerprint: string(text[:fpN]), Remediation: t.Remediation}
		if h.fp&fpStored == 0 {
			f.Fingerprint = policies.FingerprintN(f.RuleID, f.File, f.Message, int(h.fp))
		}
		if h.sup > 0 {
			f.Suppression = s.sups[h.sup-1]
		}
		if err := fn(&f); err != nil {
			return err
		}
	}
	return nil
}

// block is block i uncompressed, from a small cache: the report's order
// reads the blocks about in turn, once for each severity.
func (s *findingStore) block(i int) ([]byte, error) {
	for _, c := range s.cache {
		if c.block == i {
			return c.data, nil
		}
	}
	c := &s.cache[s.next]
	s.next = (s.next + 1) % len(s.cache)
	if s.zr == nil {
		s.zr = flate.NewReader(bytes.NewReader(s.blocks[i]))
	} else if err := s.zr.(flate.Resetter).Reset(bytes.NewReader(s.blocks[i]), nil); err != nil {
		return nil, err
	}
	if cap(c.data) < s.sizes[i] {
		c.data = make([]byte, s.sizes[i])
	}
	c.data = c.data[:s.sizes[i]]
	c.block = -1
	if _, err := io.ReadFull(s.zr, c.data); err != nil {
		return nil, err
	}
	c.block = i
	return c.data, nil
}
