// Package pgtest gives tests a real PostgreSQL server: its own cluster in a
// temporary directory, started with Debian's postgresql binaries on a free
// loopback port, shared by a package's tests and stopped by Stop. Each test
// gets a database of its own.
//
// SANDBOX_AUDIT_TEST_POSTGRES=postgres://… uses that server instead. With
// neither, a test skips on a developer's machine and fails when CI is set:
// CI installs PostgreSQL (.ci/run), so it always runs these tests.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var server struct {
	once sync.Once
	dsn  string // the admin database
	err  error
	stop func()
}

var dbs atomic.Int64

// DSN returns a new, empty database of the test server, dropped when the
// test ends.
func DSN(t testing.TB) string {
	t.Helper()
	server.once.Do(start)
	if server.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL: %v", server.err)
		}
		t.Skipf("PostgreSQL: %v (CI installs it; or set SANDBOX_AUDIT_TEST_POSTGRES)", server.err)
	}
	admin, err := sql.Open("pgx", server.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("sa_test_%d_%d", os.Getpid(), dbs.Add(1))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", server.dsn)
		if err == nil {
			_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			admin.Close()
		}
	})
	u, err := url.Parse(server.dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Stop stops the server this package started, if any: call it from
// TestMain after m.Run.
func Stop() {
	if server.stop != nil {
		server.stop()
	}
}

func start() {
	if dsn := os.Getenv("SANDBOX_AUDIT_TEST_POSTGRES"); dsn != "" {
		server.dsn = dsn
		return
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		server.err = errors.New("no initdb under /usr/lib/postgresql (Debian's postgresql package)")
		return
	}
	sort.Slice(bins, func(i, j int) bool { return version(bins[i]) > version(bins[j]) })
	bin := filepath.Dir(bins[0])
	dir, err := os.MkdirTemp("", "sa-pgtest-")
	if err != nil {
		server.err = err
		return
	}
	// PostgreSQL refuses to run as root: as root, the cluster belongs to
	// the postgres user the package created.
	var as []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			server.err = fmt.Errorf("running as root and no postgres user: %w", err)
			return
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			server.err = err
			return
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(name string, args ...string) error {
		argv := append(append(as[:len(as):len(as)], filepath.Join(bin, name)), args...)
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run("initdb", "-D", data, "-A", "trust", "-U", "sa", "-E", "UTF8", "--no-sync"); err != nil {
		server.err = err
		os.RemoveAll(dir)
		return
	}
	port, err := freePort()
	if err != nil {
		server.err = err
		return
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c max_connections=200", port, dir)
	if err := run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		server.err = err
		os.RemoveAll(dir)
		return
	}
	server.stop = func() {
		_ = run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	}
	server.dsn = fmt.Sprintf("postgres://sa@127.0.0.1:%d/postgres?sslmode=disable", port)
	// The server answers once pg_ctl -w returns; check it does.
	db, err := sql.Open("pgx", server.dsn)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err = db.PingContext(ctx)
		cancel()
		db.Close()
	}
	if err != nil {
		server.err = err
		server.stop()
		server.stop = nil
	}
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
