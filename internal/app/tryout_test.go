package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
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

// countingBody is a request body that records how much of it the server
// read.
type countingBody struct {
	r    io.Reader
	read atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// A recording is refused, when it can be, before its body is read: past
// the hourly limits nothing of it is read, and what is not a recording is
// told from its first bytes.
func TestATryRecordingIsRefusedBeforeItsBodyIsRead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"TRY_LIMIT_PER_IP": "1"})
		upload := func(ip string, body []byte) (int, int64) {
			counted := &countingBody{r: bytes.NewReader(body)}
			req := httptest.NewRequest(http.MethodPost, "/api/tryout/recordings/dental", counted)
			req.Header.Set("Content-Type", "audio/webm")
			req.Header.Set("X-Test-Client-IP", ip)
			rec := httptest.NewRecorder()
			app.Handler().ServeHTTP(rec, req)
			return rec.Code, counted.read.Load()
		}
		script := bytes.Repeat([]byte("#!/bin/sh\nrm -rf /\n"), tryout.MaxAudioBytes/20)
		if status, read := upload("10.0.0.35", script); status != http.StatusBadRequest || read > transcribe.SniffLen {
			t.Errorf("a script: %d after reading %d bytes", status, read)
		}
		// The script counted as the network's try this hour.
		recording := append(whispertest.Recording(t), make([]byte, tryout.MaxAudioBytes/2)...)
		if status, read := upload("10.0.0.35", recording); status != http.StatusTooManyRequests || read != 0 {
			t.Errorf("a recording past the hourly limit: %d after reading %d bytes", status, read)
		}
	})
}

// scoredTry types a try on the dental page and waits for its feedback:
// its token, and the try as its poll last read it.
func (b *browser) scoredTry() (string, map[string]any) {
	b.t.Helper()
	r := b.post("/api/tryout/typed/dental", map[string]string{"text": "I want to become a dentist because my family dentist showed me that trust and care matter."})
	wantStatus(b.t, r, http.StatusAccepted)
	token := r.JSON(b.t)["id"].(string)
	deadline := time.Now().Add(30 * time.Second)
	for settled := []any{"done", "failed"}; !slices.Contains(settled, r.JSON(b.t)["status"]) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		r = b.get("/api/tryout/tries/" + token)
	}
	if r.JSON(b.t)["status"] != "done" {
		b.t.Fatalf("the try was not scored: %s", r.Body)
	}
	return token, r.JSON(b.t)
}

// signedInAfterATry is a visitor from ip who tried the dental question
// and then signed in to a new account with email: the app, the visitor's
// browser, the try's token and the try as last polled.
func signedInAfterATry(t *testing.T, db *store.DB, ip, email string) (*testApp, *browser, string, map[string]any) {
	t.Helper()
	app := newTestApp(t, db, nil)
	b := app.browser(t, ip)
	token, scored := b.scoredTry()
	if _, err := app.auth.CreateUser(context.Background(), "Tess Try", email, pw, auth.RoleUser); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, b.login(email, pw), http.StatusOK)
	return app, b, token, scored
}

// keptTries counts the saved sessions made from tries, whoever's.
func keptTries(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM saved_sessions WHERE title = $1`, history.TitleTried).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A student whose history is locked is refused a try before anything is
// written, however often the dashboard asks: no saved session piles up
// unseen, and the try stays to be kept once a pass opens the history.
func TestALockedStudentKeepingATryWritesNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app, b, token, _ := signedInAfterATry(t, db, "10.0.0.33", "lee@example.com")
		if _, err := db.SQL.ExecContext(context.Background(), `UPDATE users SET trial_expires_at = $1 WHERE email = $2`, app.Clock.Now().Add(-time.Hour), "lee@example.com"); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			wantStatus(t, b.post("/api/tryout/tries/"+token+"/keep", nil), http.StatusForbidden)
		}
		if n := keptTries(t, db); n != 0 {
			t.Fatalf("%d saved sessions written for two refused keeps", n)
		}
		wantStatus(t, b.get("/api/tryout/tries/"+token), http.StatusOK)
	})
}

// Keeping one try from several requests at once saves it once: one is
// kept, the others find it gone.
func TestATryKeptAtOnceIsSavedOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, b, token, _ := signedInAfterATry(t, db, "10.0.0.34", "kai@example.com")
		statuses := make(chan int, 6)
		var wg sync.WaitGroup
		for range cap(statuses) {
			wg.Go(func() { statuses <- b.post("/api/tryout/tries/"+token+"/keep", nil).Status })
		}
		wg.Wait()
		close(statuses)
		kept := 0
		for s := range statuses {
			switch s {
			case http.StatusNoContent:
				kept++
			case http.StatusNotFound:
			default:
				t.Errorf("a keep answered %d", s)
			}
		}
		if n := keptTries(t, db); kept != 1 || n != 1 {
			t.Fatalf("%d keeps succeeded, %d saved sessions", kept, n)
		}
	})
}

// A try made before signing up goes into the new account's history once
// the account is verified, and uses none of its free sessions; it is then
// gone from the tries, so it cannot be kept twice.
func TestAKeptTryIsInTheHistoryAndUsesNoFreeSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, b, token, scored := signedInAfterATry(t, db, "10.0.0.32", "tess@example.com")
		score := scored["feedback"].(map[string]any)["overallScore"]
		free := func() any {
			access, _ := b.get("/api/dashboard").JSON(t)["access"].(map[string]any)
			return access["freeSessionsRemaining"]
		}
		before := free()
		wantStatus(t, b.post("/api/tryout/tries/"+token+"/keep", nil), http.StatusNoContent)
		wantStatus(t, b.post("/api/tryout/tries/"+token+"/keep", nil), http.StatusNotFound)

		var listed history.HistoryPage
		if err := json.Unmarshal(b.get("/api/practice/history").Body, &listed); err != nil {
			t.Fatal(err)
		}
		if len(listed.Sessions) != 1 || listed.Sessions[0].Title != history.TitleTried || !listed.Sessions[0].Scored ||
			listed.Sessions[0].OverallAvg != score {
			t.Fatalf("history: %+v; the try scored %v", listed.Sessions, score)
		}
		saved, _ := b.get("/api/practice/saved/" + listed.Sessions[0].ID).JSON(t)["saved"].(map[string]any)
		if items, _ := saved["items"].([]any); len(items) != 1 || items[0].(map[string]any)["question"] != "Why do you want to become a dentist?" {
			t.Errorf("the saved try: %v", saved)
		}
		if after := free(); after != before {
			t.Errorf("free sessions went from %v to %v", before, after)
		}
	})
}
