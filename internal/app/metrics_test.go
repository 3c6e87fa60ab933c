package app

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// After a practice session, /metrics holds the request, job, engine and
// queue series with values that fit what happened; the public listener
// never serves them.
func TestMetricsAfterAPracticeSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		if _, err := app.auth.CreateUser(t.Context(), "Student", "ana@example.com", pw, auth.RoleUser); err != nil {
			t.Fatal(err)
		}
		ana := app.browser(t, "10.0.0.1")
		wantStatus(t, ana.login("ana@example.com", pw), http.StatusOK)
		r := ana.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 1})
		wantStatus(t, r, http.StatusCreated)
		sess := r.JSON(t)["session"].(map[string]any)
		id := sess["id"].(string)
		item := sess["items"].([]any)[0].(map[string]any)["id"].(string)
		wantStatus(t, ana.do(http.MethodPut, "/api/practice/sessions/"+id+"/items/"+item+"/audio", bytes.NewReader(whispertest.Recording(t)),
			map[string]string{"Content-Type": "audio/webm"}), http.StatusAccepted)
		wantStatus(t, ana.post("/api/practice/sessions/"+id+"/complete", map[string]any{"totalSessionTime": 40}), http.StatusOK)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if s := ana.get("/api/practice/sessions/" + id).JSON(t)["session"].(map[string]any); s["processing"] == false {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the session was never processed")
			}
		}

		scrape := func() string {
			rec := httptest.NewRecorder()
			app.metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			return rec.Body.String()
		}
		// River marks a job completed a moment after its worker returns.
		text := scrape()
		for deadline := time.Now().Add(10 * time.Second); strings.Contains(text, `state="running"`) && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			text = scrape()
		}
		value := func(series string) float64 {
			t.Helper()
			m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no series %s in:\n%s", series, text)
			}
			v, err := strconv.ParseFloat(m[1], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		upload := `route="PUT ` + practice.AudioPath + `"`
		if n := value(`whitecoat_http_request_duration_seconds_count{method="PUT",` + upload + `,status="202"}`); n != 1 {
			t.Errorf("%v uploads counted, want 1", n)
		}
		if n := value(`whitecoat_http_request_duration_seconds_count{method="POST",route="POST /api/practice/sessions",status="201"}`); n != 1 {
			t.Errorf("%v sessions created, want 1", n)
		}
		if n := value(`whitecoat_jobs{kind="practice_transcribe",state="completed"}`); n != 1 {
			t.Errorf("%v transcriptions completed, want 1", n)
		}
		if n := value(`whitecoat_jobs{kind="practice_score",state="completed"}`); n != 1 {
			t.Errorf("%v scorings completed, want 1", n)
		}
		if n := value(`whitecoat_speech_real_time_factor_count{engine="openai:whisper-1"}`); n != 1 {
			t.Errorf("%v answers recognised, want 1", n)
		}
		if rtf := value(`whitecoat_speech_real_time_factor_sum{engine="openai:whisper-1"}`); rtf <= 0 || rtf > 10 {
			t.Errorf("real-time factor %v", rtf)
		}
		if n := value(`whitecoat_feedback_duration_seconds_count{outcome="ok"}`); n != 1 {
			t.Errorf("%v answers scored, want 1", n)
		}
		if n := value(`whitecoat_uploads_in_flight`); n != 0 {
			t.Errorf("%v uploads still in flight", n)
		}
		if n := value(`whitecoat_password_hashes_waiting`); n != 0 {
			t.Errorf("%v hashes waiting", n)
		}

		if public := ana.get("/metrics"); strings.Contains(string(public.Body), "whitecoat_") {
			t.Fatalf("the public listener served metrics:\n%s", public.Body)
		}
	})
}
