package fleet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"

	"github.com/sandbox-audit/sandbox-audit/reports"
)

// Store keeps fleet runs: each run, each target's result (verdict, the four
// properties, or the error that stopped it) and its findings (never a secret
// value: the findings' messages are redacted before any rule sees a fact).
// One SQLite file, written in WAL mode; a target is stored in one
// transaction, so a run killed half way leaves every stored target whole.
type Store struct {
	db *sql.DB
}

// migrations are applied in order on open; the schema's version is their
// count. Never edit one that has shipped: add the next.
var migrations = []string{
	`CREATE TABLE runs (
		id INTEGER PRIMARY KEY,
		started TEXT NOT NULL,
		finished TEXT,
		complete INTEGER NOT NULL DEFAULT 0,
		targets INTEGER NOT NULL
	);
	CREATE TABLE results (
		run INTEGER NOT NULL REFERENCES runs(id),
		target TEXT NOT NULL,
		error TEXT NOT NULL DEFAULT '',
		verdict TEXT NOT NULL DEFAULT '',
		gate_passed INTEGER NOT NULL DEFAULT 0,
		duration_ms INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (run, target)
	);
	CREATE TABLE properties (
		run INTEGER NOT NULL,
		target TEXT NOT NULL,
		property TEXT NOT NULL,
		status TEXT NOT NULL,
		score INTEGER NOT NULL,
		PRIMARY KEY (run, target, property)
	);
	CREATE TABLE findings (
		run INTEGER NOT NULL,
		target TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		rule TEXT NOT NULL,
		severity TEXT NOT NULL,
		property TEXT NOT NULL,
		category TEXT NOT NULL,
		file TEXT NOT NULL,
		line INTEGER NOT NULL,
		message TEXT NOT NULL,
		suppressed INTEGER NOT NULL,
		PRIMARY KEY (run, target, fingerprint)
	);`,
}

// OpenStore opens (creating it if need be) the store at url: a file path,
// or sqlite://PATH. Pending migrations are applied.
func OpenStore(ctx context.Context, url string) (*Store, error) {
	path := strings.TrimPrefix(url, "sqlite://")
	if path == "" || strings.Contains(path, "://") {
		return nil, fmt.Errorf("store %q: give a file path or sqlite://PATH", url)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one writer; SQLite serialises writes anyway
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this sandbox-audit knows (%d): use a newer release", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// BeginRun records a new run of n targets and returns its id.
func (s *Store) BeginRun(ctx context.Context, started time.Time, n int) (int64, error) {
	r, err := s.db.ExecContext(ctx, "INSERT INTO runs (started, targets) VALUES (?, ?)", started.UTC().Format(time.RFC3339), n)
	if err != nil {
		return 0, err
	}
	return r.LastInsertId()
}

// EndRun marks the run finished; complete is false when it was stopped
// before every target was audited.
func (s *Store) EndRun(ctx context.Context, run int64, finished time.Time, complete bool) error {
	_, err := s.db.ExecContext(ctx, "UPDATE runs SET finished = ?, complete = ? WHERE id = ?", finished.UTC().Format(time.RFC3339), complete, run)
	return err
}

// SaveResult stores one target's report, or the error that stopped it, in
// one transaction.
func (s *Store) SaveResult(ctx context.Context, run int64, target string, rep *reports.Report, runErr error, took time.Duration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if runErr != nil || rep == nil {
		msg := "no report"
		if runErr != nil {
			msg = runErr.Error()
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO results (run, target, error, duration_ms) VALUES (?, ?, ?, ?)", run, target, msg, took.Milliseconds()); err != nil {
			return err
		}
		return tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO results (run, target, verdict, gate_passed, duration_ms) VALUES (?, ?, ?, ?, ?)",
		run, target, rep.Verdict, rep.Gate.Passed, took.Milliseconds()); err != nil {
		return err
	}
	for _, p := range rep.Properties.Each() {
		if _, err := tx.ExecContext(ctx, "INSERT INTO properties (run, target, property, status, score) VALUES (?, ?, ?, ?, ?)",
			run, target, p.Key, p.Status, p.Score); err != nil {
			return err
		}
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO findings (run, target, fingerprint, rule, severity, property, category, file, line, message, suppressed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range rep.Findings {
		if _, err := st.ExecContext(ctx, run, target, f.Fingerprint, f.RuleID, f.Severity, f.Property, f.Category, f.File, f.Line, f.Message, f.Suppression != nil); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Run is one stored run.
type Run struct {
	ID       int64  `json:"id"`
	Started  string `json:"started"`
	Finished string `json:"finished"`
	Complete bool   `json:"complete"`
	Targets  int    `json:"targets"`
	Stored   int    `json:"stored"`
}

// ErrNoRun: the store holds no such run.
var ErrNoRun = errors.New("no such run")

// Runs lists the stored runs, newest first.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, started, COALESCE(finished, ''), complete, targets,
		(SELECT COUNT(*) FROM results WHERE results.run = runs.id) FROM runs ORDER BY id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		if err := rows.Scan(&r.ID, &r.Started, &r.Finished, &r.Complete, &r.Targets, &r.Stored); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Result is one target's stored result.
type Result struct {
	Target     string            `json:"target"`
	Error      string            `json:"error,omitempty"`
	Verdict    string            `json:"verdict,omitempty"`
	GatePassed bool              `json:"gate_passed"`
	Properties map[string]Scored `json:"properties,omitempty"`
	Findings   []Finding         `json:"-"`
}

// Scored is a property's status and score.
type Scored struct {
	Status string `json:"status"`
	Score  int    `json:"score"`
}

// Finding is a stored finding.
type Finding struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule_id"`
	Severity    string `json:"severity"`
	Property    string `json:"property"`
	Category    string `json:"category"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Message     string `json:"message"`
	Suppressed  bool   `json:"suppressed,omitempty"`
}

// Results loads every target's result of a run, by target.
func (s *Store) Results(ctx context.Context, run int64) (map[string]*Result, error) {
	out := map[string]*Result{}
	rows, err := s.db.QueryContext(ctx, "SELECT target, error, verdict, gate_passed FROM results WHERE run = ?", run)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		r := &Result{Properties: map[string]Scored{}}
		if err := rows.Scan(&r.Target, &r.Error, &r.Verdict, &r.GatePassed); err != nil {
			rows.Close()
			return nil, err
		}
		out[r.Target] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, "SELECT target, property, status, score FROM properties WHERE run = ?", run)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var t, p string
		var sc Scored
		if err := rows.Scan(&t, &p, &sc.Status, &sc.Score); err != nil {
			rows.Close()
			return nil, err
		}
		if r := out[t]; r != nil {
			r.Properties[p] = sc
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, `SELECT target, fingerprint, rule, severity, property, category, file, line, message, suppressed
		FROM findings WHERE run = ? ORDER BY target, file, line, rule, fingerprint`, run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var f Finding
		if err := rows.Scan(&t, &f.Fingerprint, &f.Rule, &f.Severity, &f.Property, &f.Category, &f.File, &f.Line, &f.Message, &f.Suppressed); err != nil {
			return nil, err
		}
		if r := out[t]; r != nil {
			r.Findings = append(r.Findings, f)
		}
	}
	return out, rows.Err()
}
