package app

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// A try without an account is a request like any other: a cross-site
// form cannot make one, the body is capped, and a refused try answers
// with the failure the landing page words.
func TestATryIsProtectedLikeEveryRequest(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"TRY_LIMIT_PER_IP": "1"})
		b := app.browser(t, "10.0.0.31")
		typed := func(header map[string]string) response {
			return b.do(http.MethodPost, "/api/tryout/typed/dental", bytes.NewReader([]byte(`{"text":"I want to care for smiles."}`)), header)
		}
		if r := typed(map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}); r.Status != http.StatusForbidden {
			t.Errorf("a cross-site try: %d %s", r.Status, r.Body)
		}
		if r := b.do(http.MethodPost, "/api/tryout/recordings/dental", bytes.NewReader(make([]byte, tryout.MaxAudioBytes+1)), map[string]string{"Content-Type": "audio/webm"}); r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("a recording over the cap: %d", r.Status)
		}
		if r := typed(map[string]string{"Content-Type": "application/json"}); r.Status != http.StatusAccepted {
			t.Fatalf("a try: %d %s", r.Status, r.Body)
		}
		r := typed(map[string]string{"Content-Type": "application/json"})
		if r.Status != http.StatusTooManyRequests || r.JSON(t)["type"] != httpx.ProblemType(tryout.FailureTooManyFromNetwork.Name) || r.Header.Get("Retry-After") == "" {
			t.Errorf("a second try this hour: %d %s", r.Status, r.Body)
		}
	})
}
