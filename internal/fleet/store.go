package fleet

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	neturl "net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
	_ "modernc.org/sqlite"             // the pure-Go SQLite driver, "sqlite"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Store keeps fleet runs: each run, each target's result (verdict, the four
// properties, or the error that stopped it) and its findings (never a secret
// value: the findings' messages are redacted before any rule sees a fact).
// SQLite (one file, WAL) by default; PostgreSQL for a store that many
// machines share, such as the shards of one run. A target is stored in one
// transaction, so a run killed half way leaves every stored target whole.
type Store struct {
	db *sql.DB
	pg bool
}

// migrations are the schema's steps, one text for both dialects: the
// schema's version is the count applied. Never edit one that has shipped:
// add the next. $ID, $BIG, $BOOL and $FALSE stand for the types and the
// value whose names differ (dialect).
var migrations = []string{
	`CREATE TABLE runs (
		id $ID,
		started TEXT NOT NULL,
		finished TEXT,
		complete $BOOL NOT NULL DEFAULT $FALSE,
		targets INTEGER NOT NULL
	);
	CREATE TABLE results (
		run $BIG NOT NULL REFERENCES runs(id),
		target TEXT NOT NULL,
		error TEXT NOT NULL DEFAULT '',
		verdict TEXT NOT NULL DEFAULT '',
		gate_passed $BOOL NOT NULL DEFAULT $FALSE,
		duration_ms $BIG NOT NULL DEFAULT 0,
		PRIMARY KEY (run, target)
	);
	CREATE TABLE properties (
		run $BIG NOT NULL,
		target TEXT NOT NULL,
		property TEXT NOT NULL,
		status TEXT NOT NULL,
		score INTEGER NOT NULL,
		PRIMARY KEY (run, target, property)
	);
	CREATE TABLE findings (
		run $BIG NOT NULL,
		target TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		rule TEXT NOT NULL,
		severity TEXT NOT NULL,
		property TEXT NOT NULL,
		category TEXT NOT NULL,
		file TEXT NOT NULL,
		line INTEGER NOT NULL,
		message TEXT NOT NULL,
		suppressed $BOOL NOT NULL,
		PRIMARY KEY (run, target, fingerprint)
	);`,
	// Runs that many processes share (the shards of one run, a rerun that
	// completes an interrupted one): a name to join by, the inventory's
	// digest and the shard count every joining process must agree on.
	`ALTER TABLE runs ADD COLUMN name TEXT;
	CREATE UNIQUE INDEX runs_name ON runs (name);
	ALTER TABLE runs ADD COLUMN inventory TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN shards INTEGER NOT NULL DEFAULT 1;`,
	// The commit a git target was audited at.
	`ALTER TABLE results ADD COLUMN revision TEXT NOT NULL DEFAULT '';`,
	// Where a result came from: audited by the run, or ingested, the
	// sandbox's report of itself.
	`ALTER TABLE results ADD COLUMN source TEXT NOT NULL DEFAULT 'audit';`,
	// A run's targets as the process that started it listed them: a
	// process joining later (a shard, a resume) whose listing of an
	// organisation differs audits the run's list.
	`CREATE TABLE run_targets (run $BIG NOT NULL, target TEXT NOT NULL, PRIMARY KEY (run, target));`,
	// What a target's audit could not read (its errors[]: file, kind,
	// redacted message) and whether its gate was left incomplete (strict):
	// what was not read is never silently passed over.
	`ALTER TABLE results ADD COLUMN incomplete $BOOL NOT NULL DEFAULT $FALSE;
	CREATE TABLE unread (
		run $BIG NOT NULL,
		target TEXT NOT NULL,
		n INTEGER NOT NULL,
		file TEXT NOT NULL,
		line INTEGER NOT NULL,
		kind TEXT NOT NULL,
		message TEXT NOT NULL,
		PRIMARY KEY (run, target, n)
	);`,
}

// dialect writes a migration for SQLite or PostgreSQL.
func dialect(m string, pg bool) string {
	if pg {
		return strings.NewReplacer("$ID", "BIGSERIAL PRIMARY KEY", "$BIG", "BIGINT", "$BOOL", "BOOLEAN", "$FALSE", "FALSE").Replace(m)
	}
	return strings.NewReplacer("$ID", "INTEGER PRIMARY KEY", "$BIG", "INTEGER", "$BOOL", "INTEGER", "$FALSE", "0").Replace(m)
}

// Result sources.
const (
	sourceAudit  = "audit"
	sourceIngest = "ingest"
)

// OpenStore opens (creating it if need be) the store at url: a file path
// or sqlite://PATH, or postgres://… (postgresql://…) for a PostgreSQL
// database. Pending migrations are applied, one process at a time.
func OpenStore(ctx context.Context, url string) (*Store, error) {
	if err := CheckStore(url); err != nil {
		return nil, err
	}
	name := RedactStore(url)
	s := &Store{}
	var err error
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		s.pg = true
		s.db, err = sql.Open("pgx", url)
		if err == nil {
			s.db.SetMaxOpenConns(8)
		}
	default:
		path := strings.TrimPrefix(url, "sqlite://")
		if path == "" || strings.Contains(path, "://") {
			return nil, fmt.Errorf("store %q: give a file path, sqlite://PATH or postgres://…", name)
		}
		// _txlock=immediate: a transaction takes the write lock when it
		// begins, so processes sharing the file (shards) never deadlock
		// upgrading a read lock, and migrations run one at a time.
		s.db, err = sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate")
		if err == nil {
			s.db.SetMaxOpenConns(1) // one writer; SQLite serialises writes anyway
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", name, err)
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("store %s: %w", name, err)
	}
	return s, nil
}

// dsnForm is a libpq key=value connection string ("host=db password=…"):
// not a file name, and one that may hold a password.
var dsnForm = regexp.MustCompile(`(^|\s)(host|hostaddr|port|dbname|user|password|passfile|sslmode|sslpassword|service|connect_timeout)\s*=`)

// CheckStore refuses a store value that is a key=value connection string,
// which would otherwise be taken for a SQLite file name (and printed as
// one), without quoting it.
func CheckStore(url string) error {
	if !strings.Contains(url, "://") && dsnForm.MatchString(url) {
		return errors.New("the store is a key=value connection string: give a URL, postgres://USER@HOST/DB (the password in $PGPASSWORD or ~/.pgpass), or a SQLite file")
	}
	return nil
}

// RedactStore is the store's URL as it may be printed: a PostgreSQL
// password is replaced by xxxxx.
func RedactStore(s string) string {
	if CheckStore(s) != nil {
		return "(a key=value connection string)"
	}
	return redactURL(s)
}

// redactURL is a URL as it may be printed: the userinfo's password and
// the query's password parameters masked.
func redactURL(s string) string {
	if u, err := neturl.Parse(s); err == nil && strings.Contains(s, "://") {
		// pgx also takes the password (and a password file) from the query.
		q := u.Query()
		for _, k := range []string{"password", "passfile", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, "xxxxx")
			}
		}
		u.RawQuery = q.Encode()
		return u.Redacted()
	}
	if strings.Contains(s, "://") && strings.Contains(s, "@") {
		return "(a store URL that does not parse)"
	}
	return s
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// q writes a query in the store's dialect: ? placeholders become $1, $2, …
// for PostgreSQL.
func (s *Store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// migrate applies the pending migrations, each in its own transaction that
// first takes the store's migration lock (SQLite's write lock, a
// PostgreSQL advisory lock), so processes opening a new store at once
// apply each step once.
func (s *Store) migrate(ctx context.Context) error {
	for {
		done, err := s.migrateOne(ctx)
		if err != nil || done {
			return err
		}
	}
}

// pgMigrationLock is the advisory lock key of the store's migrations.
const pgMigrationLock = 0x5a_6175_6469_74 // "Zaudit"

func (s *Store) migrateOne(ctx context.Context) (done bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var v int
	if s.pg {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", pgMigrationLock); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS sandbox_audit_schema (version INTEGER NOT NULL)"); err != nil {
			return false, err
		}
		err = tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM sandbox_audit_schema").Scan(&v)
	} else {
		err = tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	}
	if err != nil {
		return false, err
	}
	if v > len(migrations) {
		return false, fmt.Errorf("schema version %d is newer than this sandbox-audit knows (%d): use a newer release", v, len(migrations))
	}
	if v == len(migrations) {
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, dialect(migrations[v], s.pg)); err != nil {
		return false, fmt.Errorf("migration %d: %w", v+1, err)
	}
	if s.pg {
		_, err = tx.ExecContext(ctx, "DELETE FROM sandbox_audit_schema; INSERT INTO sandbox_audit_schema (version) VALUES ("+fmt.Sprint(v+1)+")")
	} else {
		_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1))
	}
	if err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// RunSpec says which run a process writes to.
type RunSpec struct {
	// Name joins the run of that name, creating it if need be: every
	// shard of one run, or a rerun that completes it, gives the same.
	Name string
	// Resume joins the newest incomplete run.
	Resume bool
	// Shards is the run's shard count (0 or 1: unsharded).
	Shards int
	// Listed, when set, says which target ids come from a listing that may
	// change between processes (an organisation's repositories): a joining
	// process whose targets differ from the run's in those alone adopts
	// the run's list.
	Listed func(id string) bool
}

// Digest identifies an inventory's targets: every process joining a run
// must audit the same ones.
func Digest(ids []string) string {
	s := slices.Clone(ids)
	sort.Strings(s)
	h := sha256.Sum256([]byte(strings.Join(s, "\n")))
	return hex.EncodeToString(h[:16])
}

// ErrRunMismatch: a process asked to join a run of another inventory or
// shard count.
var ErrRunMismatch = errors.New("run mismatch")

// OpenRun starts a run of the inventory ids, or joins the one spec names,
// and returns its id and the targets it already holds (a joining process
// skips them).
//
// list is the run's targets: ids, or the run's own list when it was
// adopted (spec.Listed).
func (s *Store) OpenRun(ctx context.Context, spec RunSpec, started time.Time, ids []string) (int64, map[string]bool, []string, error) {
	digest := Digest(ids)
	shards := max(1, spec.Shards)
	at := started.UTC().Format(time.RFC3339)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, nil, err
	}
	defer tx.Rollback()
	var id int64
	switch {
	case spec.Resume:
		err = tx.QueryRowContext(ctx, "SELECT id FROM runs WHERE NOT complete ORDER BY id DESC LIMIT 1").Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil, nil, fmt.Errorf("%w: the store holds no incomplete run to resume", ErrNoRun)
		}
	case spec.Name != "":
		if _, err = tx.ExecContext(ctx, s.q("INSERT INTO runs (started, targets, name, inventory, shards) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING"),
			at, len(ids), spec.Name, digest, shards); err == nil {
			err = tx.QueryRowContext(ctx, s.q("SELECT id FROM runs WHERE name = ?"), spec.Name).Scan(&id)
		}
	default:
		err = tx.QueryRowContext(ctx, s.q("INSERT INTO runs (started, targets, inventory, shards) VALUES (?, ?, ?, ?) RETURNING id"),
			at, len(ids), digest, shards).Scan(&id)
	}
	if err != nil {
		return 0, nil, nil, err
	}
	var have string
	var haveShards, haveTargets int
	lock := ""
	if s.pg {
		lock = " FOR UPDATE" // joiners of one run take turns (SQLite's write lock does so)
	}
	if err := tx.QueryRowContext(ctx, s.q("SELECT inventory, shards, targets FROM runs WHERE id = ?"+lock), id).Scan(&have, &haveShards, &haveTargets); err != nil {
		return 0, nil, nil, err
	}
	runList, err := s.runTargets(ctx, tx, id)
	if err != nil {
		return 0, nil, nil, err
	}
	list := ids
	switch {
	case len(runList) == 0 && have == digest:
		// The run is new (or older than run_targets): record its list.
		for _, t := range ids {
			if _, err := tx.ExecContext(ctx, s.q("INSERT INTO run_targets (run, target) VALUES (?, ?) ON CONFLICT DO NOTHING"), id, t); err != nil {
				return 0, nil, nil, err
			}
		}
	case have == digest:
	case len(runList) > 0 && onlyListed(ids, runList, spec.Listed):
		list = runList
	default:
		return 0, nil, nil, fmt.Errorf("%w: run %d was started on another inventory (%d targets; this one lists %d): start a new run", ErrRunMismatch, id, haveTargets, len(ids))
	}
	if spec.Shards > 1 && haveShards != spec.Shards {
		return 0, nil, nil, fmt.Errorf("%w: run %d is split in %d shards, not %d", ErrRunMismatch, id, haveShards, spec.Shards)
	}
	rows, err := tx.QueryContext(ctx, s.q("SELECT target FROM results WHERE run = ?"), id)
	if err != nil {
		return 0, nil, nil, err
	}
	defer rows.Close()
	stored := map[string]bool{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return 0, nil, nil, err
		}
		stored[t] = true
	}
	if err := rows.Err(); err != nil {
		return 0, nil, nil, err
	}
	rows.Close()
	return id, stored, list, tx.Commit()
}

func (s *Store) runTargets(ctx context.Context, tx *sql.Tx, run int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, s.q("SELECT target FROM run_targets WHERE run = ? ORDER BY target"), run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// onlyListed: a and b differ only in ids listed (true of listed).
func onlyListed(a, b []string, listed func(string) bool) bool {
	if listed == nil {
		return false
	}
	in := map[string]int{}
	for _, x := range a {
		in[x] |= 1
	}
	for _, x := range b {
		in[x] |= 2
	}
	for x, m := range in {
		if m != 3 && !listed(x) {
			return false
		}
	}
	return true
}

// EndRun records that a process finished its part of the run; the run is
// complete once every target of its inventory is stored, whichever process
// stored it.
func (s *Store) EndRun(ctx context.Context, run int64, finished time.Time) (complete bool, err error) {
	if _, err := s.db.ExecContext(ctx, s.q("UPDATE runs SET finished = ?, complete = ((SELECT COUNT(*) FROM results WHERE results.run = runs.id) = targets) WHERE id = ?"),
		finished.UTC().Format(time.RFC3339), run); err != nil {
		return false, err
	}
	err = s.db.QueryRowContext(ctx, s.q("SELECT complete FROM runs WHERE id = ?"), run).Scan(&complete)
	return complete, err
}

// SaveResult stores one target's report, or the error that stopped it, in
// one transaction.
func (s *Store) SaveResult(ctx context.Context, run int64, target, rev string, rep *reports.Report, runErr error, took time.Duration) error {
	return s.saveResult(ctx, run, target, rev, sourceAudit, rep, runErr, took)
}

func (s *Store) saveResult(ctx context.Context, run int64, target, rev, source string, rep *reports.Report, runErr error, took time.Duration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if runErr != nil || rep == nil {
		msg := "no report"
		if runErr != nil {
			// Whatever a target's error quotes (git's stderr, an engine's
			// answer), the store holds no secret.
			msg = secrets.Redact(runErr.Error())
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO results (run, target, revision, source, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)"), run, target, rev, source, msg, took.Milliseconds()); err != nil {
			return err
		}
		return tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, s.q("INSERT INTO results (run, target, revision, source, verdict, gate_passed, incomplete, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
		run, target, rev, source, rep.Verdict, rep.Gate.Passed, rep.Gate.Incomplete, took.Milliseconds()); err != nil {
		return err
	}
	for i, e := range rep.Errors {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO unread (run, target, n, file, line, kind, message) VALUES (?, ?, ?, ?, ?, ?, ?)"),
			run, target, i, secrets.Redact(e.File), e.Line, e.Kind, secrets.Redact(e.Message)); err != nil {
			return err
		}
	}
	for _, p := range rep.Properties.Each() {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO properties (run, target, property, status, score) VALUES (?, ?, ?, ?, ?)"),
			run, target, p.Key, p.Status, p.Score); err != nil {
			return err
		}
	}
	st, err := tx.PrepareContext(ctx, s.q("INSERT INTO findings (run, target, fingerprint, rule, severity, property, category, file, line, message, suppressed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
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
	Name     string `json:"name,omitempty"`
	Started  string `json:"started"`
	Finished string `json:"finished"`
	Complete bool   `json:"complete"`
	Targets  int    `json:"targets"`
	Shards   int    `json:"shards"`
	Stored   int    `json:"stored"`
}

// ErrNoRun: the store holds no such run.
var ErrNoRun = errors.New("no such run")

// Runs lists the stored runs, newest first.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(name, ''), started, COALESCE(finished, ''), complete, targets, shards,
		(SELECT COUNT(*) FROM results WHERE results.run = runs.id) FROM runs ORDER BY id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		if err := rows.Scan(&r.ID, &r.Name, &r.Started, &r.Finished, &r.Complete, &r.Targets, &r.Shards, &r.Stored); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Result is one target's stored result.
type Result struct {
	Target     string            `json:"target"`
	Revision   string            `json:"revision,omitempty"` // a git target's commit
	Source     string            `json:"source"`             // audit, or ingest: the sandbox's report of itself
	Error      string            `json:"error,omitempty"`
	Verdict    string            `json:"verdict,omitempty"`
	GatePassed bool              `json:"gate_passed"`
	Properties map[string]Scored `json:"properties,omitempty"`
	Findings   []Finding         `json:"-"`
	// Unread are the inputs its audit could not read (errors[]); Incomplete
	// says its policy is strict and its gate so left incomplete.
	Unread     []Unread `json:"unread,omitempty"`
	Incomplete bool     `json:"incomplete,omitempty"`
}

// Unread is an input a target's audit could not read: an errors[] entry,
// its message redacted.
type Unread struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Message string `json:"message"`
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
	rows, err := s.db.QueryContext(ctx, s.q("SELECT target, revision, source, error, verdict, gate_passed, incomplete FROM results WHERE run = ?"), run)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		r := &Result{Properties: map[string]Scored{}}
		if err := rows.Scan(&r.Target, &r.Revision, &r.Source, &r.Error, &r.Verdict, &r.GatePassed, &r.Incomplete); err != nil {
			rows.Close()
			return nil, err
		}
		out[r.Target] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, s.q("SELECT target, property, status, score FROM properties WHERE run = ?"), run)
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
	rows, err = s.db.QueryContext(ctx, s.q("SELECT target, file, line, kind, message FROM unread WHERE run = ? ORDER BY target, n"), run)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var t string
		var u Unread
		if err := rows.Scan(&t, &u.File, &u.Line, &u.Kind, &u.Message); err != nil {
			rows.Close()
			return nil, err
		}
		if r := out[t]; r != nil {
			r.Unread = append(r.Unread, u)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, s.q(`SELECT target, fingerprint, rule, severity, property, category, file, line, message, suppressed
		FROM findings WHERE run = ? ORDER BY target, file, line, rule, fingerprint`), run)
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

// RunPoint is one run's posture, for the report's history.
type RunPoint struct {
	Run      int64          `json:"run"`
	Started  string         `json:"started"`
	Complete bool           `json:"complete"`
	PassRate map[string]int `json:"pass_rate"` // percent of audited targets
	Verdicts map[string]int `json:"verdicts"`  // "error": stopped by an error
}

// History is the posture of the n runs up to and including run, oldest
// first, counted in the store (no findings are loaded).
func (s *Store) History(ctx context.Context, run int64, n int) ([]RunPoint, error) {
	rows, err := s.db.QueryContext(ctx, s.q("SELECT id, started, complete FROM runs WHERE id <= ? ORDER BY id DESC LIMIT ?"), run, n)
	if err != nil {
		return nil, err
	}
	var out []RunPoint
	for rows.Next() {
		p := RunPoint{PassRate: map[string]int{}, Verdicts: map[string]int{}}
		if err := rows.Scan(&p.Run, &p.Started, &p.Complete); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Reverse(out)
	if len(out) == 0 {
		return out, nil
	}
	first := out[0].Run
	idx := map[int64]*RunPoint{}
	for i := range out {
		idx[out[i].Run] = &out[i]
	}
	rows, err = s.db.QueryContext(ctx, s.q(`SELECT run, CASE WHEN error <> '' THEN 'error' ELSE verdict END, COUNT(*)
		FROM results WHERE run >= ? AND run <= ? GROUP BY 1, 2`), first, run)
	if err != nil {
		return nil, err
	}
	audited := map[int64]int{}
	for rows.Next() {
		var id int64
		var v string
		var c int
		if err := rows.Scan(&id, &v, &c); err != nil {
			rows.Close()
			return nil, err
		}
		if p := idx[id]; p != nil {
			p.Verdicts[v] = c
			if v != "error" {
				audited[id] += c
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// A run with audited targets has a rate for every property (0 when
	// none passed); one whose every target failed to audit has none.
	for i := range out {
		if audited[out[i].Run] > 0 {
			for _, p := range rules.Properties {
				out[i].PassRate[p] = 0
			}
		}
	}
	rows, err = s.db.QueryContext(ctx, s.q(`SELECT run, property, COUNT(*) FROM properties
		WHERE run >= ? AND run <= ? AND status = 'pass' GROUP BY run, property`), first, run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var prop string
		var c int
		if err := rows.Scan(&id, &prop, &c); err != nil {
			return nil, err
		}
		if p := idx[id]; p != nil && audited[id] > 0 {
			p.PassRate[prop] = c * 100 / audited[id]
		}
	}
	return out, rows.Err()
}
