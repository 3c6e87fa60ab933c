// Package mailtest runs a real SMTP server inside a test and collects what
// it receives, so mail is tested over the wire rather than through a fake.
package mailtest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Received is one delivered message.
type Received struct {
	From string
	To   []string
	Raw  []byte
}

// Server is an SMTP server on a loopback port.
type Server struct {
	URL *url.URL

	mu       sync.Mutex
	received []Received
	arrived  chan struct{}
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{arrived: make(chan struct{}, 100)}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	s.URL = &url.URL{Scheme: "smtp", Host: ln.Addr().String()}
	return s
}

// WaitFor returns the first message to addr, waiting up to timeout.
func (s *Server) WaitFor(t testing.TB, addr string, timeout time.Duration) Received {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if msgs := s.To(addr); len(msgs) > 0 {
			return msgs[0]
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("mailtest: no message to %s within %s", addr, timeout)
		}
	}
}

// To returns every message delivered to addr so far.
func (s *Server) To(addr string) []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Received
	for _, r := range s.received {
		for _, to := range r.To {
			if strings.EqualFold(to, addr) {
				out = append(out, r)
			}
		}
	}
	return out
}

// Count is the number of messages received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.received)
}

var linkRE = regexp.MustCompile(`https?://[^\s"<>]+token=[A-Za-z0-9_\-]+`)

// Link returns the first token-carrying link in the message's plain-text
// part, decoded from its transfer encoding.
func (r Received) Link(t testing.TB) *url.URL {
	t.Helper()
	text := r.Text(t)
	m := linkRE.FindString(text)
	if m == "" {
		t.Fatalf("mailtest: no link in message:\n%s", text)
	}
	u, err := url.Parse(m)
	if err != nil {
		t.Fatalf("mailtest: bad link %q: %v", m, err)
	}
	return u
}

// Text returns the decoded text/plain part of the message.
func (r Received) Text(t testing.TB) string {
	t.Helper()
	text, err := r.part("text/plain")
	if err != nil {
		t.Fatalf("mailtest: %v\n%s", err, r.Raw)
	}
	return text
}

// HasPart reports whether the message carries a part of this media type.
func (r Received) HasPart(mediaType string) bool {
	_, err := r.part(mediaType)
	return err == nil
}

// part parses the raw message afresh each time, since a body can only be
// read once.
func (r Received) part(mediaType string) (string, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		return "", err
	}
	return findPart(textproto.MIMEHeader(msg.Header), msg.Body, mediaType)
}

func findPart(h textproto.MIMEHeader, body io.Reader, want string) (string, error) {
	mediaType, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		mediaType = "text/plain"
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err != nil {
				return "", fmt.Errorf("no %s part", want)
			}
			if text, err := findPart(p.Header, p, want); err == nil {
				return text, nil
			}
		}
	}
	if mediaType != want {
		return "", fmt.Errorf("no %s part", want)
	}
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	return string(b), err
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s    *Server
	from string
	to   []string
}

func (x *session) AuthMechanisms() []string { return nil }
func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.from = from
	return nil
}
func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}
func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if _, err := mail.ReadMessage(bytes.NewReader(raw)); err != nil {
		return err
	}
	x.s.mu.Lock()
	x.s.received = append(x.s.received, Received{From: x.from, To: x.to, Raw: raw})
	x.s.mu.Unlock()
	select {
	case x.s.arrived <- struct{}{}:
	default:
	}
	return nil
}
func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }
