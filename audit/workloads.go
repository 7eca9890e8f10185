package audit

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/sandbox-audit/sandbox-audit/reports"
)

// workloadLog holds a fleet scan's workload summaries, in order, in blocks
// compressed as they fill, until the report is built: the 50,000-file
// corpus's 25,000 workloads took 7 MB as reports.Workload values, most of
// it repeated text (ids, reasons), for the whole scan.
type workloadLog struct {
	blocks [][]byte
	cur    []byte
	n      int
	zw     *deflater
}

func (l *workloadLog) add(ws []reports.Workload) {
	for _, w := range ws {
		for _, s := range [...]string{w.ID, w.Name, w.Source, w.File, w.Role, w.Reason} {
			l.cur = binary.AppendUvarint(l.cur, uint64(len(s)))
			l.cur = append(l.cur, s...)
		}
		l.cur = binary.AppendVarint(l.cur, int64(w.Line))
		judged := byte(0)
		if w.Judged {
			judged = 1
		}
		l.cur = append(l.cur, judged)
		l.n++
		if len(l.cur) >= storeBlock {
			l.flush()
		}
	}
}

func (l *workloadLog) flush() {
	if l.zw == nil {
		l.zw = &deflater{}
	}
	l.blocks = append(l.blocks, l.zw.compress(l.cur))
	l.cur = l.cur[:0]
}

// all returns the workloads added, in order; l is emptied.
func (l *workloadLog) all() ([]reports.Workload, error) {
	if len(l.cur) > 0 {
		l.flush()
	}
	out := make([]reports.Workload, 0, l.n)
	var data []byte
	var zr io.ReadCloser
	for _, b := range l.blocks {
		if zr == nil {
			zr = flate.NewReader(bytes.NewReader(b))
		} else if err := zr.(flate.Resetter).Reset(bytes.NewReader(b), nil); err != nil {
			return nil, err
		}
		var err error
		if data, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
		for len(data) > 0 {
			var f [6]string
			for i := range f {
				n, k := binary.Uvarint(data)
				if k <= 0 || uint64(len(data)-k) < n {
					return nil, fmt.Errorf("workload log: corrupt block")
				}
				f[i], data = string(data[k:k+int(n)]), data[k+int(n):]
			}
			line, k := binary.Varint(data)
			if k <= 0 || len(data) < k+1 {
				return nil, fmt.Errorf("workload log: corrupt block")
			}
			out = append(out, reports.Workload{ID: f[0], Name: f[1], Source: f[2], File: f[3], Role: f[4], Reason: f[5], Line: int(line), Judged: data[k] == 1})
			data = data[k+1:]
		}
	}
	*l = workloadLog{}
	return out, nil
}
