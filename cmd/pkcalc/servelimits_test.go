package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/api"
	"github.com/pkcalc/pkcalc/core/sample"
)

// testLimits are serveLimits short enough for tests: the rules are those
// of the constants, in tenths of seconds (a body's window in seconds, so
// that a test machine's pauses do not make a steady upload fail).
var testLimits = serveLimits{header: 300 * time.Millisecond, idle: 400 * time.Millisecond, window: time.Second, minBytes: 4 << 10}

// startServed serves s on a free loopback port, as runServe does, and
// returns its address.
func startServed(t *testing.T, s served) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if s.dir == "" {
		s.dir = "testdata/site"
	}
	if s.hosts.names == nil {
		s.hosts = servedHosts("127.0.0.1:0", ln.Addr().(*net.TCPAddr).IP)
	}
	srv := s.server()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// chunk is one chunk of a chunked body.
func chunk(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }

// every writes s to c every d until the connection fails (the server has
// closed it) or stop is closed.
func every(c net.Conn, d time.Duration, s string, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(d):
		}
		if _, err := io.WriteString(c, s); err != nil {
			return
		}
	}
}

// TestServeTimeouts: what pkcalc serve does with slow and idle clients on
// real connections: headers that never end and connections that say
// nothing are closed after the header timeout, idle ones after the idle
// timeout, and a body that stalls, or dribbles without end, fails with a
// 400 that says so and the connection closes; an endless body at speed
// ends at --max-body with 413. A slow upload that keeps the pace, longer
// than many windows, is analysed, and so is a body read after a pause of
// the handler's own.
func TestServeTimeouts(t *testing.T) {
	l := testLimits
	docs := sample.OrdersText(300)
	pausing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := make([]byte, 1)
		io.ReadFull(r.Body, first)
		time.Sleep(2 * l.window) // an analysis busy with what it read
		rest, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		fmt.Fprintf(w, "%d bytes", 1+len(rest))
	})
	for _, c := range []struct {
		name    string
		handler http.Handler // nil: pkcalc serve's own
		maxBody int64
		send    func(c net.Conn, stop <-chan struct{})
		status  int    // the answer; 0 for none
		says    string // in the answer's body
		// The server closes the connection between these times after the
		// client connects; closedBy 0 is left open.
		notBefore, closedBy time.Duration
	}{
		{name: "headers a byte at a time, never ending",
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
				every(c, 20*time.Millisecond, "x", stop)
			},
			notBefore: l.header, closedBy: l.header + 2*time.Second},
		{name: "a connection that sends nothing",
			send:      func(c net.Conn, stop <-chan struct{}) {},
			notBefore: l.header, closedBy: l.header + 2*time.Second},
		{name: "kept alive and idle after a request",
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
			},
			status: 200, says: "<title>t</title>", notBefore: l.idle, closedBy: l.idle + 2*time.Second},
		{name: "a body that stalls",
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n"+docs[:500])
			},
			status: 400, says: "the body came slower than this server waits for: less than 4096 bytes in 1s",
			notBefore: l.window, closedBy: l.window + 2*time.Second},
		{name: "a chunked body that dribbles without end",
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
				every(c, 20*time.Millisecond, chunk(`{"a":1}`+"\n"), stop) // 400 B/s, under 4 KiB a second
			},
			status: 400, says: "the body came slower than this server waits for",
			notBefore: l.window, closedBy: l.window + 2*time.Second},
		{name: "a chunked body without end, at speed", maxBody: 1 << 20,
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
				every(c, 0, chunk(strings.Repeat(`{"a":1}`+"\n", 1000)), stop)
			},
			status: 413, says: "the body is over the 1048576 bytes this server takes", closedBy: 5 * time.Second},
		{name: "a slow upload that keeps the pace",
			send: func(c net.Conn, stop <-chan struct{}) {
				io.WriteString(c, "POST /v1/analyze?keys=/tenantId&noSuggest=true HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
				// 300 orders, 2 KiB every 0.1 s (20 KiB/s, five times the 4
				// the rule asks): about 4.6 s, that many windows.
				for i := 0; i < len(docs); i += 2 << 10 {
					part := chunk(docs[i:min(i+2<<10, len(docs))])
					if i+2<<10 >= len(docs) {
						part += "0\r\n\r\n" // the end comes with the last part
					}
					if _, err := io.WriteString(c, part); err != nil {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
			},
			status: 200, says: `"documents": 300`},
		{name: "a body read after a pause of the handler's", handler: pausing,
			send: func(c net.Conn, stop <-chan struct{}) {
				// More than the server reads with the headers: the rest waits
				// in the connection while the handler pauses.
				io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 262144\r\n\r\n"+strings.Repeat("x", 256<<10))
			},
			status: 200, says: "262144 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := served{api: api.Config{MaxBodyBytes: c.maxBody}, limits: l}
			addr := startServed(t, s)
			if c.handler != nil {
				srv := &http.Server{Handler: bodyPace(l, c.handler), ReadHeaderTimeout: l.header, IdleTimeout: l.idle}
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				go srv.Serve(ln)
				t.Cleanup(func() { srv.Close() })
				addr = ln.Addr().String()
			}
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			start := time.Now()
			stop := make(chan struct{})
			defer close(stop)
			go c.send(conn, stop)
			conn.SetReadDeadline(start.Add(20 * time.Second))
			br := bufio.NewReader(conn)
			if c.status != 0 {
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != c.status || !strings.Contains(string(b), c.says) {
					t.Fatalf("status %d %.300q; want %d and %q", res.StatusCode, b, c.status, c.says)
				}
			}
			if c.closedBy == 0 {
				return
			}
			conn.SetReadDeadline(start.Add(c.closedBy))
			_, err = io.Copy(io.Discard, br)
			took := time.Since(start)
			var ne net.Error
			switch {
			case errors.As(err, &ne) && ne.Timeout():
				t.Errorf("the connection is still open after %v", took.Round(time.Millisecond))
			case took < c.notBefore*9/10: // the server's clock starts at its accept
				t.Errorf("closed after %v, before the %v it should wait", took.Round(time.Millisecond), c.notBefore)
			}
		})
	}
}

// TestServedHosts: whom pkcalc serve answers for, by --addr and the
// address it listens on. The port is not compared.
func TestServedHosts(t *testing.T) {
	for _, c := range []struct {
		addr            string
		ip              string
		allows, refuses []string
	}{
		{"127.0.0.1:8080", "127.0.0.1",
			[]string{"127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LocalHost:8080", "localhost", "[::1]:8080", "[::1]", "[0:0:0:0:0:0:0:1]:8080", "127.0.0.1:9999"},
			[]string{"evil.example:8080", "evil.example", "", ":8080", "localhost.evil.example:8080", "127.0.0.1.nip.io:8080", "192.168.1.5:8080", "[::2]:8080", "localhost.:8080", "127.0.0.2:8080"}},
		{"pk.local:9000", "192.168.1.5",
			[]string{"pk.local:9000", "PK.LOCAL:9000", "192.168.1.5:9000", "localhost:9000"},
			[]string{"evil.example:9000", "10.0.0.1:9000", "local:9000"}},
		{"localhost:8080", "127.0.0.1",
			[]string{"localhost:8080", "127.0.0.1:8080"},
			[]string{"evil.example:8080"}},
		{":8080", "::",
			[]string{"192.168.1.5:8080", "[fe80::1]:8080", "10.0.0.1", "localhost:8080"},
			[]string{"evil.example:8080", "mybox.lan:8080"}},
		{"0.0.0.0:8080", "0.0.0.0",
			[]string{"10.0.0.1:8080", "localhost:8080"},
			[]string{"evil.example:8080"}},
		{"[::1]:8080", "::1",
			[]string{"[::1]:8080", "localhost:8080"},
			[]string{"evil.example:8080", "[::2]:8080"}},
	} {
		s := servedHosts(c.addr, net.ParseIP(c.ip))
		for _, h := range c.allows {
			if !s.allows(h) {
				t.Errorf("--addr %s (listening on %s) refuses Host %q", c.addr, c.ip, h)
			}
		}
		for _, h := range c.refuses {
			if s.allows(h) {
				t.Errorf("--addr %s (listening on %s) answers Host %q", c.addr, c.ip, h)
			}
		}
	}
}

// TestServeGuards: a request through pkcalc serve as a browser or a
// program sends it: a Host it does not serve (DNS rebinding) is refused
// 421 everywhere, an API request from a page of another origin 403, and
// past --max-analyses 503 with Retry-After; the site's pages may still be
// framed by other sites.
func TestServeGuards(t *testing.T) {
	addr := startServed(t, served{api: api.Config{MaxAnalyses: 1}, limits: defaultLimits})
	docs := sample.OrdersText(30)
	for _, c := range []struct {
		name, method, path, host, ctype string
		header                          []string
		status                          int
		says, contentType               string
	}{
		{"a program", "POST", "/v1/analyze", addr, "", nil, 200, `"documents": 30`, "application/json"},
		{"by localhost", "POST", "/v1/analyze", "localhost:" + portOf(addr), "", nil, 200, `"documents": 30`, "application/json"},
		{"the page itself", "POST", "/v1/analyze", addr, "", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://" + addr}, 200, `"documents": 30`, "application/json"},
		{"typed by the user", "POST", "/v1/analyze", addr, "", []string{"Sec-Fetch-Site", "none"}, 200, `"documents": 30`, "application/json"},
		{"an old browser on the page", "POST", "/v1/analyze", addr, "", []string{"Origin", "http://" + addr}, 200, `"documents": 30`, "application/json"},
		{"text/plain from another site", "POST", "/v1/analyze", addr, "text/plain", []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"}, 403,
			"a request from a page of another site (Sec-Fetch-Site: cross-site) is refused", "application/json"},
		{"from a sibling site", "POST", "/v1/analyze", addr, "text/plain", []string{"Sec-Fetch-Site", "same-site", "Origin", "http://localhost:3000"}, 403,
			"(Sec-Fetch-Site: same-site) is refused", "application/json"},
		{"an old browser on another site", "POST", "/v1/analyze", addr, "text/plain", []string{"Origin", "http://evil.example"}, 403,
			"a request from a page of another origin (Origin: http://evil.example, not http://" + addr + ") is refused", "application/json"},
		{"another port of this host", "POST", "/v1/analyze", addr, "", []string{"Origin", "http://127.0.0.1:1"}, 403, "(Origin: http://127.0.0.1:1, not", "application/json"},
		{"a sandboxed frame", "POST", "/v1/analyze", addr, "", []string{"Origin", "null"}, 403, "(Origin: null, not", "application/json"},
		{"DNS rebinding, the API", "POST", "/v1/analyze", "evil.example:" + portOf(addr), "text/plain", nil, 421,
			`pkcalc serve answers for localhost, 127.0.0.1, [::1], not for the host \"evil.example:` + portOf(addr) + `\" this request names`, "application/json"},
		{"DNS rebinding, the page", "GET", "/", "evil.example", "", nil, 421, "(DNS rebinding) gets nothing; to use that name, start pkcalc serve with --addr NAME:PORT", "text/plain; charset=utf-8"},
		{"DNS rebinding, the same origin", "POST", "/v1/analyze", "evil.example", "", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://evil.example"}, 421, "not for the host", "application/json"},
		{"the page framed by another site", "GET", "/", addr, "", []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Dest", "iframe"}, 200, "<title>t</title>", "text/html; charset=utf-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader
			if c.method == "POST" {
				body = strings.NewReader(docs)
			}
			req, _ := http.NewRequest(c.method, "http://"+addr+c.path, body)
			req.Host = c.host
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			for i := 0; i+1 < len(c.header); i += 2 {
				req.Header.Set(c.header[i], c.header[i+1])
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.status || !strings.Contains(string(b), c.says) || res.Header.Get("Content-Type") != c.contentType {
				t.Fatalf("%d %s %.400s; want %d %s and %q", res.StatusCode, res.Header.Get("Content-Type"), b, c.status, c.contentType, c.says)
			}
			if c.contentType == "application/json" && c.status != 200 {
				var e struct{ Error api.Error }
				if err := json.Unmarshal(b, &e); err != nil || e.Error.Status != c.status {
					t.Errorf("not the API's error body: %s (%v)", b, err)
				}
			}
		})
	}

	// One analysis under way, its body still coming: the next is answered
	// 503 at once, and once it ends the next runs. A post that comes
	// before the held request is read takes the place itself, and the
	// held one is refused (on a loaded machine every post for 30 s ran,
	// and the held one was answered 503): then the held request starts
	// over on a new connection, given longer to be read.
	post := func() (*http.Response, string) {
		t.Helper()
		res, err := http.Post("http://"+addr+"/v1/analyze", "application/json", strings.NewReader(docs))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	var conn net.Conn
	var res *http.Response
	var b string
	for try := 1; try <= 8; try++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "POST /v1/analyze HTTP/1.1\r\nHost: "+addr+"\r\nTransfer-Encoding: chunked\r\n\r\n"+chunk(docs))
		time.Sleep(time.Duration(try) * 50 * time.Millisecond)
		if res, b = post(); res.StatusCode != 200 {
			conn = c
			break
		}
		c.Close()
	}
	if conn == nil {
		t.Fatal("the held analysis never held its place: every post ran")
	}
	defer conn.Close()
	if ra, _ := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode != 503 || ra != api.RetryAfterSeconds || res.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(b, `{"error":{"status":503,"message":"this server is running as many analyses as it takes at once (1): try again in 5 seconds"}}`) {
		t.Errorf("past --max-analyses: %d, Retry-After %q, %s", res.StatusCode, res.Header.Get("Retry-After"), b)
	}
	io.WriteString(conn, "0\r\n\r\n")
	held, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := io.ReadAll(held.Body)
	if held.StatusCode != 200 || !strings.Contains(string(hb), `"documents": 30`) {
		t.Fatalf("the held analysis: %d %.300s", held.StatusCode, hb)
	}
	// The place frees when the held handler returns, a moment after its
	// answer is read.
	res, b = post()
	for deadline := time.Now().Add(5 * time.Second); res.StatusCode == 503 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		res, b = post()
	}
	if res.StatusCode != 200 {
		t.Errorf("after the held analysis ended: %d %.300s", res.StatusCode, b)
	}
}

func portOf(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

// TestAnalysesFor: --max-analyses by default is one a core, fewer when
// GOMEMLIMIT cannot hold 256 MiB for each, and never none.
func TestAnalysesFor(t *testing.T) {
	for _, c := range []struct {
		procs int
		limit int64
		want  int
	}{
		{2, math.MaxInt64, 2}, // no GOMEMLIMIT
		{16, math.MaxInt64, 16},
		{1, math.MaxInt64, 1},
		{8, 1 << 30, 4},
		{8, 512 << 20, 2},
		{8, 100 << 20, 1},
		{2, 64 << 30, 2},
	} {
		if got := analysesFor(c.procs, c.limit); got != c.want {
			t.Errorf("%d cores, GOMEMLIMIT %d: %d analyses; want %d", c.procs, c.limit, got, c.want)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" && defaultMaxAnalyses() < 1 {
		t.Errorf("defaultMaxAnalyses() = %d", defaultMaxAnalyses())
	}
}
