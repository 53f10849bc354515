package main

// The limits of pkcalc serve: how long it waits on a connection, the pace
// a request body must keep, how many analyses run at once, and whom it
// answers. README.md ("pkcalc serve") documents them.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/api"
)

const (
	// headerTimeout: a request's line and headers must have arrived this
	// long after the connection opened (after the first byte of a later
	// request on a kept-alive one), or the connection is closed: a client
	// that opens connections and sends nothing, or headers a byte at a
	// time, holds none for long.
	headerTimeout = 10 * time.Second
	// idleTimeout: a kept-alive connection that brings no new request for
	// this long is closed.
	idleTimeout = 2 * time.Minute
	// A request body must bring bodyMinBytes in each bodyWindow that the
	// server spends waiting for it, about 2 KiB/s, or its request fails
	// and the connection is closed: a stalled or dribbling body is cut, an
	// upload of any size at any real pace is not (a 500 MB file over a
	// 1 Mbit/s link sends 64 KiB in half a second). Time the server spends
	// analysing between reads does not count, and there is no limit on the
	// whole request's time: --max-body bounds its size.
	bodyWindow   = 30 * time.Second
	bodyMinBytes = 64 << 10
	// analysisMemory is what one analysis is budgeted at the default
	// settings: natively the 100 MB and 500 MB sets peak at 175 to 218 MB
	// of RSS (docs/PERFORMANCE.md). With GOMEMLIMIT set, --max-analyses
	// defaults to no more analyses than fit in it.
	analysisMemory = 256 << 20
)

// serveLimits are the limits one server keeps: the constants above, or
// shorter ones in tests.
type serveLimits struct {
	header, idle, window time.Duration
	minBytes             int64
}

var defaultLimits = serveLimits{header: headerTimeout, idle: idleTimeout, window: bodyWindow, minBytes: bodyMinBytes}

// defaultMaxAnalyses is --max-analyses by default: one analysis a core
// (an analysis uses one), fewer if GOMEMLIMIT cannot hold that many.
func defaultMaxAnalyses() int {
	return analysesFor(runtime.GOMAXPROCS(0), debug.SetMemoryLimit(-1))
}

func analysesFor(procs int, memLimit int64) int {
	n := procs
	if memLimit > 0 && memLimit < math.MaxInt64 {
		n = min(n, int(memLimit/analysisMemory))
	}
	return max(1, n)
}

// served is one pkcalc serve: the site, the API and their limits.
type served struct {
	dir    string
	api    api.Config
	hosts  hostSet
	limits serveLimits
}

// server is the HTTP server of s, to Serve on a listener.
func (s served) server() *http.Server {
	return &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: s.limits.header,
		IdleTimeout:       s.limits.idle,
	}
}

// handler answers every request: for a host it serves, the API under /v1/
// (to programs and to pages of its own origin) and the site elsewhere.
func (s served) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/", sameOrigin(api.Handler(s.api)))
	mux.Handle("/", siteHandler(s.dir))
	return bodyPace(s.limits, s.hosts.check(mux))
}

// hostSet is the hosts a server answers for, by name or address, on any
// port: a proxy in front keeps the Host it was asked with, and a page of
// another port is another origin, which sameOrigin refuses.
type hostSet struct {
	names []string // lower case; addresses in netip's form
	anyIP bool     // listening on every interface: an address names this machine
}

// servedHosts is what a server listening on ip, asked for with --addr
// addr, answers for: localhost, the loopback addresses, the host of
// --addr and ip, or every address when ip is unspecified. Any other name
// (a DNS name an attacker's page pointed at this machine: DNS rebinding)
// is refused.
func servedHosts(addr string, ip net.IP) hostSet {
	s := hostSet{names: []string{"localhost", "127.0.0.1", "::1"}}
	add := func(h string) {
		if a, err := netip.ParseAddr(canonicalHost(h)); err == nil && a.IsUnspecified() {
			return // 0.0.0.0 names no host: anyIP
		}
		if h = canonicalHost(h); h != "" && !slices.Contains(s.names, h) {
			s.names = append(s.names, h)
		}
	}
	if h, _, err := net.SplitHostPort(addr); err == nil {
		add(h)
	}
	if ip != nil {
		if ip.IsUnspecified() {
			s.anyIP = true
		} else {
			add(ip.String())
		}
	}
	return s
}

// canonicalHost is a host, without its port or brackets, in lower case,
// an address in netip's form (::ffff:127.0.0.1 is 127.0.0.1).
func canonicalHost(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	return h
}

func (s hostSet) allows(host string) bool {
	h := canonicalHost(host)
	if h == "" {
		return false
	}
	if _, err := netip.ParseAddr(h); err == nil && s.anyIP {
		return true
	}
	return slices.Contains(s.names, h)
}

// check answers 421 Misdirected Request to a request for a host s does
// not serve, with the API's error body under /v1/ and text elsewhere.
func (s hostSet) check(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.allows(r.Host) {
			h.ServeHTTP(w, r)
			return
		}
		var names []string
		for _, n := range s.names {
			if strings.Contains(n, ":") {
				n = "[" + n + "]"
			}
			names = append(names, n)
		}
		if s.anyIP {
			names = append(names, "any address of this machine")
		}
		msg := fmt.Sprintf("pkcalc serve answers for %s, not for the host %q this request names: a page of another site that had its name point here (DNS rebinding) gets nothing; to use that name, start pkcalc serve with --addr NAME:PORT",
			strings.Join(names, ", "), r.Host)
		if strings.HasPrefix(r.URL.Path, "/v1/") {
			api.WriteError(w, http.StatusMisdirectedRequest, "%s", msg)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.Error(w, msg, http.StatusMisdirectedRequest)
	})
}

// sameOrigin refuses, 403, an API request a browser sends from a page of
// another origin (Sec-Fetch-Site other than same-origin or none, or an
// Origin other than the one served): without it any web page could post
// its choice of text/plain body to a local pkcalc serve. Programs send
// neither header and pass; the static site needs no such check, as its
// GETs change nothing and another site may frame the embed page.
func sameOrigin(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			api.WriteError(w, http.StatusForbidden, "a request from a page of another site (Sec-Fetch-Site: %s) is refused: pkcalc serve's API answers programs and the pages it serves", site)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			// The host alone, as http.CrossOriginProtection compares it: the
			// scheme may be a proxy's https.
			if u, err := url.Parse(origin); err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
				api.WriteError(w, http.StatusForbidden, "a request from a page of another origin (Origin: %s, not http://%s) is refused: pkcalc serve's API answers programs and the pages it serves", origin, r.Host)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// bodyPace holds every request body to the pace of l (bodyWindow): from
// the start of the request, and through the server's own reading of what
// a handler left unread.
func bodyPace(l serveLimits, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(l.window)) == nil {
				r.Body = &pacedBody{ReadCloser: r.Body, rc: rc, l: l}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// pacedBody moves the connection's read deadline as a body arrives: each
// read may wait what is left of the current window, which starts anew
// once it has brought l.minBytes. Only time spent waiting in Read counts.
type pacedBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	l      serveLimits
	got    int64         // bytes in this window
	waited time.Duration // time waited in this window
	ended  bool          // read to its end: the server's deadlines again
}

// errTooSlow is the error of a body read past its window.
type errTooSlow struct{ l serveLimits }

func (e errTooSlow) Error() string {
	return fmt.Sprintf("the body came slower than this server waits for: less than %d bytes in %v", e.l.minBytes, e.l.window)
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if b.ended {
		return b.ReadCloser.Read(p)
	}
	start := time.Now()
	b.rc.SetReadDeadline(start.Add(b.l.window - b.waited))
	n, err := b.ReadCloser.Read(p)
	b.waited += time.Since(start)
	if b.got += int64(n); b.got >= b.l.minBytes {
		b.got, b.waited = 0, 0
	}
	if err != nil {
		b.ended = true
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = errTooSlow{b.l}
	}
	return n, err
}
