package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/transcribe/whispertest"
)

// twoStudents signs in Ana and Bob, two verified students.
func twoStudents(t *testing.T, app *testApp) (ana, bob *browser) {
	t.Helper()
	for _, email := range []string{"ana@example.com", "bob@example.com"} {
		if _, err := app.auth.CreateUser(t.Context(), "Student", email, pw, auth.RoleUser); err != nil {
			t.Fatal(err)
		}
	}
	ana, bob = app.browser(t, "10.0.0.1"), app.browser(t, "10.0.0.2")
	wantStatus(t, ana.login("ana@example.com", pw), http.StatusOK)
	wantStatus(t, bob.login("bob@example.com", pw), http.StatusOK)
	return ana, bob
}

// practiseAndSave answers one custom question with the fake speech
// service's recording, completes the session once it is processed and
// saves it under title. It returns the session's, its answer's and the
// saved session's ids.
func practiseAndSave(t *testing.T, b *browser, question, title string) (sessionID, itemID, savedID string) {
	t.Helper()
	r := b.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "custom",
		"questions": []map[string]string{{"text": question}}})
	wantStatus(t, r, http.StatusCreated)
	sess := r.JSON(t)["session"].(map[string]any)
	sessionID = sess["id"].(string)
	itemID = sess["items"].([]any)[0].(map[string]any)["id"].(string)
	sessionPath := "/api/practice/sessions/" + sessionID
	wantStatus(t, b.do(http.MethodPut, sessionPath+"/items/"+itemID+"/audio", bytes.NewReader(whispertest.Recording(t)),
		map[string]string{"Content-Type": "audio/webm"}), http.StatusAccepted)
	wantStatus(t, b.post(sessionPath+"/complete", map[string]int{"totalSessionTime": 60}), http.StatusOK)
	deadline := time.Now().Add(30 * time.Second)
	for b.get(sessionPath).JSON(t)["session"].(map[string]any)["processing"] == true {
		if time.Now().After(deadline) {
			t.Fatal("the session is still processing")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r = b.post(sessionPath+"/save", map[string]string{"title": title})
	wantStatus(t, r, http.StatusCreated)
	return sessionID, itemID, r.JSON(t)["saved"].(map[string]any)["id"].(string)
}

// Every practice endpoint refuses bad input with a precise 4xx and leaves
// the session as it was.
func TestPracticeAPIRefusesBadInput(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, bob := twoStudents(t, app)

		r := ana.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 2})
		wantStatus(t, r, http.StatusCreated)
		sess := r.JSON(t)["session"].(map[string]any)
		id := sess["id"].(string)
		items := sess["items"].([]any)
		item := items[0].(map[string]any)["id"].(string)
		audioPath := "/api/practice/sessions/" + id + "/items/" + item + "/audio"
		upload := func(b *browser, path, contentType string, body []byte) response {
			return b.do(http.MethodPut, path, bytes.NewReader(body), map[string]string{"Content-Type": contentType})
		}
		eleven := []map[string]string{}
		for i := range 11 {
			eleven = append(eleven, map[string]string{"text": "Question " + strings.Repeat("?", i+1)})
		}
		for _, tc := range []struct {
			name   string
			resp   response
			status int
			detail string
		}{
			{"an 11th question", ana.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "custom", "questions": eleven}),
				http.StatusBadRequest, "at most 10 questions"},
			{"count over 10", ana.post("/api/practice/sessions", map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 11}),
				http.StatusUnprocessableEntity, "questionCount"},
			{"unknown profession", ana.post("/api/practice/sessions", map[string]any{"profession": "astronaut", "mode": "audio", "interviewType": "random"}),
				http.StatusUnprocessableEntity, `profession: expected value to be one of "dental, medical, pt, pa, pharmacy, ot, veterinary"`},
			{"wrong session id", ana.get("/api/practice/sessions/0123456789abcdef"), http.StatusNotFound, practice.MsgSessionNotFound},
			{"another user's session", bob.get("/api/practice/sessions/" + id), http.StatusNotFound, practice.MsgSessionNotFound},
			{"another user's upload", upload(bob, audioPath, "audio/webm", whispertest.Recording(t)), http.StatusNotFound, practice.MsgSessionNotFound},
			{"wrong item id", upload(ana, "/api/practice/sessions/"+id+"/items/nope/audio", "audio/webm", whispertest.Recording(t)), http.StatusNotFound, practice.MsgItemNotFound},
			{"not audio", upload(ana, audioPath, "audio/webm", []byte("%PDF-1.7 definitely not a recording")), http.StatusBadRequest, "not a recording"},
			{"over the size cap", upload(ana, audioPath, "audio/webm", bytes.Repeat([]byte{0x1a}, practice.MaxUploadBytes+1)), http.StatusRequestEntityTooLarge, "too large"},
			{"a piece at a negative offset", ana.do(http.MethodPatch, audioPath+"?offset=-1", bytes.NewReader(whispertest.Recording(t)), map[string]string{"Content-Type": "audio/webm"}),
				http.StatusUnprocessableEntity, "offset"},
			{"a piece at no number", ana.do(http.MethodPatch, audioPath+"?offset=ten", bytes.NewReader(whispertest.Recording(t)), map[string]string{"Content-Type": "audio/webm"}),
				http.StatusUnprocessableEntity, "offset"},
			{"a piece over its cap", ana.do(http.MethodPatch, audioPath+"?offset=0", bytes.NewReader(bytes.Repeat([]byte{0x1a}, practice.MaxPieceBytes+1)), map[string]string{"Content-Type": "audio/webm"}),
				http.StatusRequestEntityTooLarge, "too large"},
			{"a later piece first", ana.do(http.MethodPatch, audioPath+"?offset=100", bytes.NewReader(whispertest.Recording(t)), map[string]string{"Content-Type": "audio/webm"}),
				http.StatusConflict, "offset 0"},
			{"finish without pieces", ana.post(audioPath+"/finish", map[string]int{"size": 100}), http.StatusConflict, "No recording was uploaded"},
			{"finish with no size", ana.post(audioPath+"/finish", map[string]int{"size": 0}), http.StatusUnprocessableEntity, "size"},
			{"save before completing", ana.post("/api/practice/sessions/"+id+"/save", map[string]string{"title": "x"}), http.StatusConflict, "Complete the session"},
			{"retry a pending answer", ana.post("/api/practice/sessions/"+id+"/items/"+item+"/retry", map[string]string{}), http.StatusConflict, "failed answer"},
			{"a missing saved session", bob.get("/api/practice/saved/0123"), http.StatusNotFound, history.MsgSavedNotFound},
		} {
			if tc.resp.Status != tc.status || !strings.Contains(tc.resp.Detail(t), tc.detail) {
				t.Errorf("%s: %d %q, want %d containing %q", tc.name, tc.resp.Status, tc.resp.Detail(t), tc.status, tc.detail)
			}
		}
		after := ana.get("/api/practice/sessions/" + id).JSON(t)["session"].(map[string]any)
		for _, it := range after["items"].([]any) {
			if st := it.(map[string]any)["status"]; st != string(practice.StatusPending) {
				t.Fatalf("a refused request changed an item to %v", st)
			}
		}

		// The same upload, done right, is processed.
		wantStatus(t, upload(ana, audioPath, "audio/webm;codecs=opus", whispertest.Recording(t)), http.StatusAccepted)
		deadline := time.Now().Add(30 * time.Second)
		for {
			s := ana.get("/api/practice/sessions/" + id).JSON(t)["session"].(map[string]any)
			first := s["items"].([]any)[0].(map[string]any)
			if first["status"] == string(practice.StatusDone) {
				if fb, ok := first["feedback"].(map[string]any); !ok || fb["overallScore"] == nil {
					t.Fatalf("done without feedback: %v", first)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("answer never processed: %v", first)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// Another student's saved session, asked for by its real id (and its
// session's and answer's real ids) through every operation that takes one,
// is answered as missing and comes back as it was: nothing of it shows, and
// nothing of the other student's reaches it. (A made-up id, as the
// authorisation matrix uses, shows only that missing ids are missing.)
func TestAnotherStudentsSavedSessionStaysTheirs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, bob := twoStudents(t, app)

		const title = "Ana's private practice"
		id, item, savedID := practiseAndSave(t, ana, "Why would a quokka make a good dentist?", title)
		sessionPath := "/api/practice/sessions/" + id
		savedPath := "/api/practice/saved/" + savedID
		before := ana.get(savedPath)
		wantStatus(t, before, http.StatusOK)
		heard := before.JSON(t)["saved"].(map[string]any)["items"].([]any)[0].(map[string]any)["transcript"].(string)
		if heard == "" {
			t.Fatal("the saved answer has no transcript to protect")
		}

		// Every operation that addresses a session or a saved session by id,
		// walked from the API itself so that a new one is covered the moment
		// it exists, is tried by Bob with Ana's real ids and a body it accepts.
		const bobsText = "Bob wrote this over Ana's answer, and it should never be seen in her session."
		bobsBodies := map[string]any{
			"finish-answer":             map[string]int{"size": 100},
			"answer-in-writing":         map[string]string{"text": bobsText},
			"correct-transcript":        map[string]string{"transcript": bobsText},
			"complete-practice-session": map[string]int{"totalSessionTime": 60},
			"save-practice-session":     map[string]string{"title": "Bob's now"},
		}
		ids := map[string]string{"{id}": id, "{itemId}": item}
		walked := 0
		for _, op := range operations(app.api) {
			if !strings.HasPrefix(op.Path, "/api/practice/sessions/{id}") && op.Path != "/api/practice/saved/{id}" {
				continue
			}
			walked++
			path := op.Path
			if op.Path == "/api/practice/saved/{id}" {
				path = savedPath
			}
			for param, value := range ids {
				path = strings.ReplaceAll(path, param, value)
			}
			var resp response
			switch body, ok := bobsBodies[op.OperationID]; {
			case op.RequestBody != nil && op.RequestBody.Content["application/json"] == nil:
				// An upload: a whole recording, or its first piece.
				if op.Method == http.MethodPatch {
					path += "?offset=0"
				}
				resp = bob.do(op.Method, path, bytes.NewReader(whispertest.Recording(t)), map[string]string{"Content-Type": "audio/webm"})
			case ok:
				data, err := json.Marshal(body)
				if err != nil {
					t.Fatal(err)
				}
				resp = bob.do(op.Method, path, bytes.NewReader(data), map[string]string{"Content-Type": "application/json"})
			default:
				resp = bob.do(op.Method, path, nil, nil)
			}
			want := practice.MsgSessionNotFound
			if op.Path == "/api/practice/saved/{id}" {
				want = history.MsgSavedNotFound
			}
			if resp.Status != http.StatusNotFound || resp.Detail(t) != want {
				t.Errorf("Bob tried %s %s: %d %q, want 404 %q", op.OperationID, path, resp.Status, resp.Detail(t), want)
			}
			for _, secret := range []string{title, heard, "quokka"} {
				if bytes.Contains(resp.Body, []byte(secret)) {
					t.Errorf("Bob tried %s and saw %q: %s", op.OperationID, secret, resp.Body)
				}
			}
		}
		if walked < 12 {
			t.Fatalf("walked only %d operations on a session; the walk is not reading the router", walked)
		}
		if found := bob.get("/api/practice/history?q=quokka").JSON(t); found["total"] != 0.0 {
			t.Errorf("Bob's history search found Ana's session: %v", found)
		}

		after := ana.get(savedPath)
		wantStatus(t, after, http.StatusOK)
		if !bytes.Equal(after.Body, before.Body) {
			t.Errorf("Ana's saved session changed:\nbefore %s\nafter  %s", before.Body, after.Body)
		}
		live := ana.get(sessionPath).JSON(t)["session"].(map[string]any)["items"].([]any)[0].(map[string]any)
		if live["transcript"] != heard || live["correction"] != nil {
			t.Errorf("Ana's answer changed: transcript %v, correction %v", live["transcript"], live["correction"])
		}
	})
}
