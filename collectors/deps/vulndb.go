package deps

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/aquasecurity/trivy-db/pkg/db"
	dbtypes "github.com/aquasecurity/trivy-db/pkg/types"
	"github.com/aquasecurity/trivy/pkg/detector/library"
	ftypes "github.com/aquasecurity/trivy/pkg/fanal/types"
	"github.com/aquasecurity/trivy/pkg/vulnerability"
	bolt "go.etcd.io/bbolt"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func init() {
	// trivy's pkg/log replaces slog's default logger at init with one that
	// buffers every record (log.Printf included) until trivy's own CLI
	// flushes it, and trivy-db lowers the log package's level to debug. In
	// a library that is a leak and silence: put plain stderr logging back.
	// The CLI sets its own logger at start-up after this.
	slog.SetLogLoggerLevel(slog.LevelInfo)
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
}

// dbMu serializes use of trivy-db, which keeps its bolt handle in a package
// variable: one scan at a time opens, reads and closes it.
var dbMu sync.Mutex

// langTypes maps our ecosystems to the trivy language type whose driver
// carries the ecosystem's version semantics (npm semver, PEP 440, Go, Cargo).
var langTypes = map[string]ftypes.LangType{
	ecoNPM:      ftypes.Npm,
	ecoGo:       ftypes.GoModule,
	ecoPyPI:     ftypes.Pip,
	ecoCargo:    ftypes.Cargo,
	ecoGem:      ftypes.Bundler,
	ecoComposer: ftypes.Composer,
}

// dbLocation finds trivy.db under dir: a trivy cache dir (db/trivy.db, as
// `trivy --cache-dir` lays it out) or the db dir itself. "" means trivy's
// default cache: $TRIVY_CACHE_DIR, else the user cache dir's trivy/.
func dbLocation(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv("TRIVY_CACHE_DIR")
	}
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find cache dir: %w", err)
		}
		dir = filepath.Join(c, "trivy")
	}
	if _, err := os.Stat(filepath.Join(dir, "trivy.db")); err == nil {
		return dir, nil
	}
	return filepath.Join(dir, "db"), nil
}

// dbMeta is trivy-db's metadata.json beside trivy.db.
type dbMeta struct {
	Version   int       `json:"Version"`
	UpdatedAt time.Time `json:"UpdatedAt"`
}

// vulnDB is an open, read-only trivy database.
type vulnDB struct {
	client  vulnerability.Client
	drivers map[string]library.Driver
}

// openDB opens the database read-only and fills the db fields of d. It
// never downloads: a missing database is reported, not fetched. The caller
// holds dbMu and calls db.Close.
func openDB(dir string, d *model.Deps) (*vulnDB, error) {
	dbDir, err := dbLocation(dir)
	if err != nil {
		d.DBStatus = "missing: " + err.Error()
		return nil, nil
	}
	d.DBPath = db.Path(dbDir)
	st, err := os.Stat(d.DBPath)
	if err != nil || !st.Mode().IsRegular() {
		d.DBStatus = "missing: no trivy database at " + d.DBPath + " (run `trivy image --download-db-only` or pass --db DIR)"
		return nil, nil
	}
	if raw, err := os.ReadFile(filepath.Join(dbDir, "metadata.json")); err == nil {
		var m dbMeta
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("read database metadata: %w", err)
		}
		if m.Version != 0 && m.Version != db.SchemaVersion {
			return nil, fmt.Errorf("open database: schema version %d, this build reads %d", m.Version, db.SchemaVersion)
		}
		if !m.UpdatedAt.IsZero() {
			d.DBUpdated = m.UpdatedAt.UTC().Format(time.RFC3339)
		}
	}
	if err := probeDB(d.DBPath); err != nil {
		return nil, err
	}
	opts := &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second}
	if err := db.Init(dbDir, db.WithBoltOptions(opts)); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	v := &vulnDB{client: vulnerability.NewClient(db.Config{}), drivers: map[string]library.Driver{}}
	for eco, lt := range langTypes {
		if drv, ok := library.NewDriver(lt); ok {
			v.drivers[eco] = drv
		}
	}
	return v, nil
}

// probeDB opens the file with bolt and reads its bucket list before trivy-db
// does: on a fault in a damaged file, db.Init recovers by deleting the
// database, and this one belongs to the user's trivy cache.
func probeDB(p string) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("open database: corrupted: %v", r)
		}
	}()
	b, err := bolt.Open(p, 0o444, &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer b.Close()
	n := 0
	err = b.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func([]byte, *bolt.Bucket) error { n++; return nil })
	})
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	if n == 0 {
		return errors.New("open database: no buckets (not a trivy database)")
	}
	return nil
}

// match returns the advisories for name@version in eco.
func (v *vulnDB) match(eco, name, version string) ([]model.DepVuln, error) {
	drv, ok := v.drivers[eco]
	if !ok || version == "" {
		return nil, nil
	}
	if eco == ecoGo {
		version = strings.TrimPrefix(version, "v") // as trivy's own go.mod parser
	}
	found, err := drv.DetectVulnerabilities("", name, version)
	if err != nil {
		return nil, fmt.Errorf("match %s %s: %w", name, version, err)
	}
	if len(found) == 0 {
		return nil, nil
	}
	v.client.FillInfo(found, []dbtypes.SourceID{"auto"})
	out := make([]model.DepVuln, 0, len(found))
	for _, f := range found {
		out = append(out, model.DepVuln{
			ID:           f.VulnerabilityID,
			Severity:     strings.ToLower(f.Severity),
			Title:        f.Title,
			FixedVersion: f.FixedVersion,
			URL:          f.PrimaryURL,
		})
	}
	return out, nil
}

// matchVulns matches every added or changed package version against the
// database. VulnMatched stays false unless every one could be looked up.
func matchVulns(d *model.Deps, dir string) []model.Error {
	dbMu.Lock()
	defer dbMu.Unlock()
	v, err := openDB(dir, d)
	if err != nil {
		d.DBStatus = "error: " + err.Error()
		return []model.Error{{File: d.DBPath, Message: "vulnerability database: " + err.Error()}}
	}
	if v == nil {
		return nil
	}
	defer db.Close()
	d.DBStatus = "ok"
	for i := range d.Packages {
		p := &d.Packages[i]
		if p.Change == "removed" {
			continue
		}
		vs, err := v.match(p.Ecosystem, p.Name, p.Version)
		if err != nil {
			d.DBStatus = "error: " + err.Error()
			return []model.Error{{File: d.DBPath, Message: "vulnerability database: " + err.Error()}}
		}
		if vs != nil {
			p.Vulnerabilities = vs
		}
	}
	d.VulnMatched = true
	return nil
}
