// Package ghtest is a GitHub REST API server for tests: the few endpoints
// sandbox-audit reads, answering with bodies written after GitHub's REST
// documentation (not copied payloads), for repositories a test describes.
package ghtest

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Repo is one repository the server knows.
type Repo struct {
	Private       bool
	Archived      bool
	Fork          bool
	DefaultBranch string // "main" when empty
	// RulePages are the pages of "get rules for a branch" (each a JSON
	// array of rules).
	RulePages []string
	// Rulesets by id: the JSON of "get a repository ruleset".
	Rulesets map[int64]string
	// Protected is the branch's protected flag; Protection the JSON of its
	// branch protection ("" : 404 Branch not protected); ProtectionStatus
	// another answer (403: the token lacks Administration: read).
	Protected        bool
	Protection       string
	ProtectionStatus int
	// WorkflowPermissions and ActionsPermissions are their JSON; a status
	// instead when not 0.
	WorkflowPermissions, ActionsPermissions string
	SettingsStatus                          int
	// CopilotVariables, when not nil, makes a copilot environment with these
	// variables (name → value).
	CopilotVariables map[string]string
	// Environments are other environments, by name: each one's JSON, as
	// "list environments" gives it (and GET environments/NAME); others
	// are 404. EnvironmentsStatus, when not 0, answers the listing (403:
	// the token lacks Actions: read).
	Environments       map[string]string
	EnvironmentsStatus int
	// EnvironmentsPerPage, when not 0, pages the listing by that many
	// (GitHub pages it by per_page, at most 100).
	EnvironmentsPerPage int
	// Files are the default branch's files (path → content).
	Files map[string]string
}

// Server is the fake API.
type Server struct {
	*httptest.Server
	Token string
	mu    sync.Mutex
	repos map[string]*Repo
	// Requests counts requests per repository (owner/name), OrgRequests
	// those of an organisation's paths (orgs/acme/installations).
	Requests, OrgRequests map[string]int
	// LimitOnce makes the first request of every path answer 403 with a
	// secondary rate limit and Retry-After: 1.
	LimitOnce bool
	limited   map[string]bool
	// BadAuth counts requests without the token in the Authorization
	// header.
	BadAuth int
	// Orgs lists each organisation's repositories (names; each must be in
	// repos as ORG/NAME), served by "list organization repositories".
	Orgs map[string][]string
	// Installations are the answers of "list app installations for an
	// organization", by organisation ("" answers 403, as to a token that
	// is no owner's); another organisation's is 404. A repository's owner
	// is an Organization when it is in Orgs or Installations, else a User.
	Installations map[string]string
	// Latency delays every answer, as a network would.
	Latency time.Duration
	// MaxInFlight is the most requests the server held at once.
	MaxInFlight int
	inFlight    int
	// Total counts every request; NotModified those answered 304 (an
	// If-None-Match naming the answer's ETag).
	Total, NotModified int
	// NoETags leaves the ETag header out of every answer.
	NoETags bool
	// Intercept, when set, answers an authenticated request first (p is
	// its path below /api/v3/, "repos/o/r/git/trees/main") and says
	// whether it did: a test's hostile or broken answer. It runs without
	// the server's lock, so it may take its time (a slow body).
	Intercept func(w http.ResponseWriter, r *http.Request, p string) bool
}

// New starts a server for repos (owner/name → Repo); requests must carry
// token.
func New(t testing.TB, token string, repos map[string]*Repo) *Server {
	s := &Server{Token: token, repos: repos, Requests: map[string]int{}, OrgRequests: map[string]int{}, limited: map[string]bool{}, Orgs: map[string][]string{}, Installations: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// AddRepo adds a repository to an organisation while the server runs.
func (s *Server) AddRepo(org, name string, r *Repo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[org+"/"+name] = r
	s.Orgs[org] = append(s.Orgs[org], name)
}

// URL is the API base to give the client.
func (s *Server) APIURL() string { return s.Server.URL + "/api/v3/" }

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func notFound(w http.ResponseWriter, msg string) {
	writeJSON(w, 404, fmt.Sprintf(`{"message": %q, "documentation_url": "https://docs.github.com/rest"}`, msg))
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.inFlight++
	s.Total++
	s.MaxInFlight = max(s.MaxInFlight, s.inFlight)
	s.mu.Unlock()
	time.Sleep(s.Latency)
	s.mu.Lock()
	defer func() {
		s.inFlight--
		s.mu.Unlock()
	}()
	if r.Header.Get("Authorization") != "Bearer "+s.Token {
		s.BadAuth++
		writeJSON(w, 401, `{"message": "Requires authentication"}`)
		return
	}
	p := strings.TrimPrefix(r.URL.Path, "/api/v3/")
	if intercept := s.Intercept; intercept != nil {
		s.mu.Unlock()
		done := intercept(w, r, p)
		s.mu.Lock()
		if done {
			return
		}
	}
	if r.Method == http.MethodGet && !s.NoETags {
		// Every 200 answer carries an ETag, its body's hash, as GitHub's
		// do; a request naming it gets 304 and no body.
		rec := &recorder{header: w.Header(), status: 200}
		defer func(w http.ResponseWriter) {
			if rec.status == 200 {
				sum := sha256.Sum256(rec.body.Bytes())
				etag := `W/"` + hex.EncodeToString(sum[:12]) + `"`
				w.Header().Set("ETag", etag)
				if r.Header.Get("If-None-Match") == etag {
					s.NotModified++
					w.Header().Del("Content-Type")
					w.WriteHeader(http.StatusNotModified)
					return
				}
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
		}(w)
		w = rec
	}
	if s.LimitOnce && !s.limited[r.URL.String()] {
		s.limited[r.URL.String()] = true
		w.Header().Set("Retry-After", "1")
		writeJSON(w, 403, `{"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`)
		return
	}
	parts := strings.Split(p, "/")
	if parts[0] == "orgs" {
		s.OrgRequests[p]++
	}
	if len(parts) == 3 && parts[0] == "orgs" && parts[2] == "repos" {
		s.orgRepos(w, r, parts[1])
		return
	}
	if len(parts) == 3 && parts[0] == "orgs" && parts[2] == "installations" {
		switch body, ok := s.Installations[parts[1]]; {
		case !ok:
			notFound(w, "Not Found")
		case body == "":
			writeJSON(w, 403, `{"message": "You must be an organization owner to list installations"}`)
		default:
			writeJSON(w, 200, body)
		}
		return
	}
	if len(parts) < 3 || parts[0] != "repos" {
		notFound(w, "Not Found")
		return
	}
	full := parts[1] + "/" + parts[2]
	s.Requests[full]++
	repo := s.repos[full]
	if repo == nil {
		notFound(w, "Not Found")
		return
	}
	branch := repo.DefaultBranch
	if branch == "" {
		branch = "main"
	}
	rest := strings.Join(parts[3:], "/")
	switch {
	case rest == "":
		owner := "User"
		if _, ok := s.Orgs[parts[1]]; ok {
			owner = "Organization"
		} else if _, ok := s.Installations[parts[1]]; ok {
			owner = "Organization"
		}
		writeJSON(w, 200, fmt.Sprintf(`{"id": 1, "name": %q, "full_name": %q, "owner": {"login": %q, "type": %q}, "private": %v, "default_branch": %q, "archived": false}`,
			parts[2], full, parts[1], owner, repo.Private, branch))
	case rest == "rules/branches/"+branch:
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if len(repo.RulePages) == 0 {
			writeJSON(w, 200, `[]`)
			return
		}
		if page > len(repo.RulePages) {
			writeJSON(w, 200, `[]`)
			return
		}
		if page < len(repo.RulePages) {
			s.nextLink(w, r, page)
		}
		writeJSON(w, 200, repo.RulePages[page-1])
	case strings.HasPrefix(rest, "rulesets/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(rest, "rulesets/"), 10, 64)
		if body, ok := repo.Rulesets[id]; ok {
			writeJSON(w, 200, body)
			return
		}
		notFound(w, "Not Found")
	case rest == "branches/"+branch:
		writeJSON(w, 200, fmt.Sprintf(`{"name": %q, "protected": %v, "commit": {"sha": "0000000000000000000000000000000000000001"}}`, branch, repo.Protected))
	case rest == "branches/"+branch+"/protection":
		switch {
		case repo.ProtectionStatus != 0:
			writeJSON(w, repo.ProtectionStatus, `{"message": "Resource not accessible by integration"}`)
		case repo.Protection == "":
			notFound(w, "Branch not protected")
		default:
			writeJSON(w, 200, repo.Protection)
		}
	case rest == "actions/permissions/workflow" || rest == "actions/permissions":
		body := repo.WorkflowPermissions
		if rest == "actions/permissions" {
			body = repo.ActionsPermissions
		}
		if repo.SettingsStatus != 0 {
			writeJSON(w, repo.SettingsStatus, `{"message": "Resource not accessible by integration"}`)
			return
		}
		writeJSON(w, 200, body)
	case rest == "environments":
		s.environments(w, r, repo)
	case rest == "environments/copilot":
		if repo.CopilotVariables == nil {
			notFound(w, "Not Found")
			return
		}
		writeJSON(w, 200, `{"id": 7, "name": "copilot", "protection_rules": []}`)
	case strings.HasPrefix(rest, "environments/") && !strings.Contains(strings.TrimPrefix(rest, "environments/"), "/") && repo.Environments != nil:
		body, ok := repo.Environments[strings.TrimPrefix(rest, "environments/")]
		switch {
		case !ok:
			notFound(w, "Not Found")
		case body == "":
			writeJSON(w, 403, `{"message": "Resource not accessible by integration"}`)
		default:
			writeJSON(w, 200, body)
		}
	case strings.EqualFold(rest, "environments/copilot/variables"):
		var vs []map[string]string
		for _, k := range slices.Sorted(maps.Keys(repo.CopilotVariables)) {
			vs = append(vs, map[string]string{"name": k, "value": repo.CopilotVariables[k]})
		}
		b, _ := json.Marshal(map[string]any{"total_count": len(vs), "variables": vs})
		writeJSON(w, 200, string(b))
	case rest == "git/trees/"+branch:
		var entries []map[string]any
		for _, path := range slices.Sorted(maps.Keys(repo.Files)) {
			entries = append(entries, map[string]any{"path": path, "mode": "100644", "type": "blob", "sha": blobSHA(repo.Files[path]), "size": len(repo.Files[path])})
		}
		b, _ := json.Marshal(map[string]any{"sha": "t", "tree": entries, "truncated": false})
		writeJSON(w, 200, string(b))
	case strings.HasPrefix(rest, "git/blobs/"):
		for _, c := range repo.Files {
			if blobSHA(c) == strings.TrimPrefix(rest, "git/blobs/") {
				if strings.Contains(r.Header.Get("Accept"), "raw") {
					w.WriteHeader(200)
					fmt.Fprint(w, c)
					return
				}
				writeJSON(w, 200, fmt.Sprintf(`{"sha": %q, "encoding": "base64", "content": %q}`, blobSHA(c), base64.StdEncoding.EncodeToString([]byte(c))))
				return
			}
		}
		notFound(w, "Not Found")
	default:
		notFound(w, "Not Found")
	}
}

// environments serves one page of "list environments": the copilot
// environment (with CopilotVariables) and Environments, by name.
func (s *Server) environments(w http.ResponseWriter, r *http.Request, repo *Repo) {
	if repo.EnvironmentsStatus != 0 {
		writeJSON(w, repo.EnvironmentsStatus, `{"message": "Resource not accessible by integration"}`)
		return
	}
	bodies := map[string]string{}
	if repo.CopilotVariables != nil {
		bodies["copilot"] = `{"id": 7, "name": "copilot", "protection_rules": []}`
	}
	for name, body := range repo.Environments {
		bodies[name] = body
	}
	names := slices.Sorted(maps.Keys(bodies))
	per := perPage(r)
	if repo.EnvironmentsPerPage > 0 {
		per = min(per, repo.EnvironmentsPerPage)
	}
	page, lo, hi := window(r, per, len(names))
	var items []string
	for _, n := range names[lo:hi] {
		items = append(items, bodies[n])
	}
	if hi < len(names) {
		s.nextLink(w, r, page)
	}
	writeJSON(w, 200, fmt.Sprintf(`{"total_count": %d, "environments": [%s]}`, len(names), strings.Join(items, ", ")))
}

// orgRepos serves one page of an organisation's repositories.
func (s *Server) orgRepos(w http.ResponseWriter, r *http.Request, org string) {
	names, ok := s.Orgs[org]
	if !ok {
		notFound(w, "Not Found")
		return
	}
	per := perPage(r)
	page, lo, hi := window(r, per, len(names))
	var out []map[string]any
	for _, n := range names[lo:hi] {
		repo := s.repos[org+"/"+n]
		branch := "main"
		if repo != nil && repo.DefaultBranch != "" {
			branch = repo.DefaultBranch
		}
		out = append(out, map[string]any{"name": n, "full_name": org + "/" + n, "private": repo != nil && repo.Private,
			"default_branch": branch, "archived": repo != nil && repo.Archived, "fork": repo != nil && repo.Fork, "owner": map[string]any{"login": org}})
	}
	if hi < len(names) {
		s.nextLink(w, r, page)
	}
	b, _ := json.Marshal(out)
	if out == nil {
		b = []byte("[]")
	}
	writeJSON(w, 200, string(b))
}

// recorder holds an answer until its ETag is known.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

// blobSHA is git's name of a blob: its content's hash, so a changed file
// is a new blob as on GitHub.
func blobSHA(content string) string {
	h := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
	return hex.EncodeToString(h[:])
}

// perPage is the page size a request asks for: per_page, 30 when it gives
// none or more than GitHub's 100.
func perPage(r *http.Request) int {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 || per > 100 {
		return 30
	}
	return per
}

// window is the page a request asks for (1 when none) and the indices of
// its items among n, per to a page.
func window(r *http.Request, per, n int) (page, lo, hi int) {
	page, _ = strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	return page, min((page-1)*per, n), min(page*per, n)
}

// nextLink sets the Link header GitHub sends when a page follows this one.
func (s *Server) nextLink(w http.ResponseWriter, r *http.Request, page int) {
	next := *r.URL
	q := next.Query()
	q.Set("page", strconv.Itoa(page+1))
	next.RawQuery = q.Encode()
	w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.Server.URL, next.RequestURI()))
}
