package practice

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The read that ends an upload's body also returns its last bytes, and
// net/http, seeing the end, lifts the connection's read deadline as it
// starts waiting for the client's next request; the paced body then set
// its deadline again for those bytes. Once that deadline passed, while
// the answer was still being handled, the waiting read failed and the
// request was canceled. Here the grace is 50 ms, the body 64 bytes (8 ms
// at the slowest rate allowed) and the handling 300 ms.
func TestAnUploadHandledPastItsPaceIsNotCanceled(t *testing.T) {
	canceled := make(chan bool, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paced := pace(r.Body, http.NewResponseController(w), 50*time.Millisecond)
		defer paced.stop()
		if _, err := io.ReadAll(paced); err != nil {
			t.Error(err)
		}
		select {
		case <-r.Context().Done():
			canceled <- true
		case <-time.After(300 * time.Millisecond):
			canceled <- false
		}
	}))
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Post(srv.URL, "audio/webm", bytes.NewReader(make([]byte, 64)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if <-canceled {
		t.Fatal("the upload was canceled while it was handled: the paced body set a deadline after the body had ended")
	}
}
