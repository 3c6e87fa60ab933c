package httpx

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// TextHygiene reads a JSON body whole before Huma does; Huma then set its
// body-read deadline on the connection, where nothing lifted it, because
// the body it read was the copy in memory (or, without a body, nothing).
// The server's read waiting for the client's next request hit that
// deadline, and a request still working when it passed (a sign-in queued
// for a password hash on a busy machine) was canceled: the client got
// 499. Here the operation's body deadline is 50 ms and its work 500 ms.
func TestARequestOutlastingItsBodyDeadlineIsNotCanceled(t *testing.T) {
	mux := http.NewServeMux()
	api := humago.New(mux, huma.DefaultConfig("test", "1.0.0"))
	type input struct {
		Body *struct {
			Name string `json:"name"`
		} `required:"false"`
	}
	canceled := make(chan bool, 1)
	huma.Register(api, huma.Operation{Method: http.MethodPost, Path: "/slow", BodyReadTimeout: 50 * time.Millisecond},
		func(ctx context.Context, _ *input) (*struct{}, error) {
			select {
			case <-ctx.Done():
				canceled <- true
				return nil, ctx.Err()
			case <-time.After(500 * time.Millisecond):
				canceled <- false
				return nil, nil
			}
		})
	srv := httptest.NewServer(TextHygiene(time.Minute)(mux))
	t.Cleanup(srv.Close)

	for name, body := range map[string]io.Reader{"a JSON body": strings.NewReader(`{"name":"Ana"}`), "no body": nil} {
		t.Run(name, func(t *testing.T) {
			resp, err := srv.Client().Post(srv.URL+"/slow", "application/json", body)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if <-canceled {
				t.Fatal("the request was canceled while it worked: the connection kept the body's read deadline")
			}
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("status %d, want 204", resp.StatusCode)
			}
		})
	}
}

// A JSON body that stops arriving is answered once its wait is over, as
// Huma answered before TextHygiene read bodies ahead of it (without a
// deadline, so a client could hold the request open for as long as it
// kept the connection).
func TestAJSONBodyThatStopsArrivingGets408(t *testing.T) {
	var reached atomic.Bool
	srv := httptest.NewServer(TextHygiene(100 * time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
	})))
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /x HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"name\":"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), MsgBodyTooSlow) {
		t.Fatalf("status %d, body %s; want 408 with %q", resp.StatusCode, body, MsgBodyTooSlow)
	}
	if reached.Load() {
		t.Fatal("the handler ran on a body that never arrived")
	}
}
