package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/share"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// sharedSession has Ana save a session and share it with a reviewer; it
// returns her, Bob, the saved session's id and the link's token.
func sharedSession(t *testing.T, app *testApp, expiry share.Expiry) (ana, bob *browser, savedID, token string) {
	t.Helper()
	ana, bob = twoStudents(t, app)
	_, _, savedID = practiseAndSave(t, ana, "Why would a quokka make a good dentist?", "Ana's shared practice")
	return ana, bob, savedID, createLink(t, ana, savedID, expiry)
}

func createLink(t *testing.T, b *browser, savedID string, expiry share.Expiry) string {
	t.Helper()
	r := b.post("/api/shares", map[string]string{"savedSessionId": savedID, "reviewerName": "Dr. Rivera", "expiry": string(expiry)})
	wantStatus(t, r, http.StatusCreated)
	link, err := url.Parse(r.JSON(t)["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if link.Path != "/"+share.ReviewPage {
		t.Fatalf("link %s does not open the review page", link)
	}
	return link.Query().Get("token")
}

func reviewPath(token string) string { return "/api/review?token=" + url.QueryEscape(token) }

func commentPath(token string) string { return "/api/review/comments?token=" + url.QueryEscape(token) }

func wantFailure(t *testing.T, r response, status int, failure string) {
	t.Helper()
	wantStatus(t, r, status)
	if got := r.JSON(t)["type"]; got != httpx.ProblemType(failure) {
		t.Fatalf("problem type %v, want %s: %s", got, failure, r.Body)
	}
}

// commentAtThePace has reviewer leave comments from up to to on the link,
// the clock moved on a window before each window's worth (the first
// included).
func commentAtThePace(t *testing.T, app *testApp, reviewer *browser, token string, from, to int) {
	t.Helper()
	for n := from; n < to; n++ {
		if n%share.CommentRate.Limit == 0 {
			app.Clock.Advance(share.CommentRate.Window)
		}
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": fmt.Sprintf("Comment %d", n)}), http.StatusCreated)
	}
}

// A student shares a saved session; someone with no account opens the
// link, sees the answers and nothing else of hers, and comments; she sees
// the comment, is emailed about it, and can report it, which is when an
// admin can read it.
func TestSharingASavedSessionForComments(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, bob, savedID, token := sharedSession(t, app, share.ExpirySevenDays)
		if len(token) < 43 {
			t.Fatalf("token %q is short", token)
		}
		var stored string
		if err := db.SQL.QueryRow(`SELECT token_hash FROM session_shares`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(token))
		if stored != hex.EncodeToString(sum[:]) {
			t.Fatalf("stored %q, not the token's hash", stored)
		}

		reviewer := app.browser(t, "10.9.0.1")
		r := reviewer.get(reviewPath(token))
		wantStatus(t, r, http.StatusOK)
		review := r.JSON(t)
		items := review["session"].(map[string]any)["items"].([]any)
		first := items[0].(map[string]any)
		if first["question"] != "Why would a quokka make a good dentist?" || first["transcript"] == "" || first["feedback"] == nil {
			t.Fatalf("the reviewer does not see the answer: %v", first)
		}
		if review["studentFirstName"] != "Student" || review["reviewerName"] != "Dr. Rivera" {
			t.Fatalf("names: %v", review)
		}
		for _, private := range []string{"ana@example.com", "practiceSessionId", "itemId", savedID} {
			if bytes.Contains(r.Body, []byte(private)) {
				t.Errorf("the reviewer sees %q: %s", private, r.Body)
			}
		}

		r = reviewer.post(commentPath(token), map[string]any{"itemIndex": 0, "body": "  Lead with the patient story.\r\nThen the quokka.  "})
		wantStatus(t, r, http.StatusCreated)
		app.Clock.Advance(time.Minute)
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": "A warm, clear session overall."}), http.StatusCreated)

		mail := app.Mail.WaitFor(t, "ana@example.com", 10*time.Second)
		if text := mail.Text(t); !strings.Contains(text, "Dr. Rivera left a comment") || !strings.Contains(text, "Ana's shared practice") ||
			strings.Contains(text, "Lead with the patient story") {
			t.Errorf("mail:\n%s", text)
		}
		if want := app.URL + "/dental/summary?saved=" + savedID; !strings.Contains(mail.Text(t), want) {
			t.Errorf("mail does not link to %s", want)
		}

		r = ana.get("/api/shares/comments?savedSessionId=" + savedID)
		wantStatus(t, r, http.StatusOK)
		comments := r.JSON(t)["comments"].([]any)
		if len(comments) != 2 {
			t.Fatalf("comments %v", comments)
		}
		onAnswer := comments[0].(map[string]any)
		if onAnswer["body"] != "Lead with the patient story.\nThen the quokka." || onAnswer["itemIndex"] != 0.0 || onAnswer["authorName"] != "Dr. Rivera" {
			t.Fatalf("comment %v", onAnswer)
		}
		if overall := comments[1].(map[string]any); overall["itemIndex"] != nil {
			t.Fatalf("overall comment %v", overall)
		}
		links := ana.get("/api/shares?savedSessionId=" + savedID).JSON(t)["links"].([]any)
		if l := links[0].(map[string]any); len(links) != 1 || l["comments"] != 2.0 || l["state"] != "active" || l["expiresAt"] == nil ||
			l["savedSessionTitle"] != "Ana's shared practice" {
			t.Fatalf("links %v", links)
		}

		// Bob reaches none of it with Ana's real ids.
		commentID := onAnswer["id"].(string)
		linkID := links[0].(map[string]any)["id"].(string)
		wantStatus(t, bob.post("/api/shares", map[string]string{"savedSessionId": savedID, "reviewerName": "Bob's friend", "expiry": "7-days"}), http.StatusNotFound)
		wantStatus(t, bob.post("/api/shares/"+linkID+"/revoke", nil), http.StatusNotFound)
		wantStatus(t, bob.post("/api/shares/comments/"+commentID+"/report", nil), http.StatusNotFound)
		for _, path := range []string{"/api/shares", "/api/shares/comments", "/api/shares/comments?savedSessionId=" + savedID} {
			if r := bob.get(path); r.Status != http.StatusOK || bytes.Contains(r.Body, []byte("Dr. Rivera")) {
				t.Errorf("Bob listed %s: %d %s", path, r.Status, r.Body)
			}
		}

		// An admin sees that Ana shares a session, and reads only what she reports.
		admin := app.browser(t, "10.9.0.2")
		if _, err := app.auth.CreateUser(t.Context(), "Ada Admin", "admin@example.com", pw, auth.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		admin.enrolAdmin("admin@example.com", pw)
		for _, u := range admin.get("/api/admin/users?q=ana").JSON(t)["users"].([]any) {
			if row := u.(map[string]any); row["sharedSessions"] != 1.0 {
				t.Errorf("admin users row %v", row)
			}
		}
		if r := admin.get("/api/admin/reported-comments"); bytes.Contains(r.Body, []byte("quokka")) || r.Status != http.StatusOK {
			t.Fatalf("an admin read an unreported comment: %s", r.Body)
		}
		wantStatus(t, ana.post("/api/shares/comments/"+commentID+"/report", nil), http.StatusOK)
		reported := admin.get("/api/admin/reported-comments").JSON(t)["comments"].([]any)
		if len(reported) != 1 || reported[0].(map[string]any)["body"] != onAnswer["body"] {
			t.Fatalf("reported %v", reported)
		}
		if r := reviewer.get(reviewPath(token)); bytes.Contains(r.Body, []byte("reportedAt")) {
			t.Errorf("the reviewer learns of the report: %s", r.Body)
		}
	})
}

// The reviewer reads each answer as the student does in the saved
// session: the words that may have been misheard marked, the delivery
// figures, how it ended (issue 38 item 1: the marks vanished once a
// session was saved, and the reviewer saw neither them nor a failure).
func TestTheReviewerSeesEachAnswerAsTheStudentDoes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		app.Whisper.SetWordProbabilities(0.95, 0.95, 0.2, 0.95)
		ana, _, savedID, token := sharedSession(t, app, share.ExpirySevenDays)
		own := ana.get("/api/practice/saved/" + savedID).JSON(t)["saved"].(map[string]any)["items"].([]any)[0].(map[string]any)
		if own["uncertainWords"] != 1.0 || own["transcriptParts"] == nil {
			t.Fatalf("the saved answer lost its marks: %v", own)
		}
		reviewed := app.browser(t, "10.9.0.1").get(reviewPath(token)).JSON(t)["session"].(map[string]any)["items"].([]any)[0].(map[string]any)
		for _, field := range []string{"kind", "status", "question", "transcript", "meaningful", "metrics", "feedback", "uncertainWords", "transcriptParts"} {
			if !reflect.DeepEqual(reviewed[field], own[field]) {
				t.Errorf("the reviewer's %s is %v, the student's %v", field, reviewed[field], own[field])
			}
		}
	})
}

// A link says why it no longer opens: past its date, or turned off.
func TestShareLinksExpireAndAreRevoked(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, _, savedID, week := sharedSession(t, app, share.ExpirySevenDays)
		month := createLink(t, ana, savedID, share.ExpiryThirtyDays)
		forever := createLink(t, ana, savedID, share.ExpiryUntilRevoked)
		reviewer := app.browser(t, "10.9.0.1")

		app.Clock.Advance(7*24*time.Hour - time.Second)
		wantStatus(t, reviewer.get(reviewPath(week)), http.StatusOK)
		app.Clock.Advance(time.Second)
		wantFailure(t, reviewer.get(reviewPath(week)), http.StatusNotFound, "share-link-expired")
		wantFailure(t, reviewer.post(commentPath(week), map[string]any{"body": "Late."}), http.StatusNotFound, "share-link-expired")
		wantStatus(t, reviewer.get(reviewPath(month)), http.StatusOK)

		app.Clock.Advance(365 * 24 * time.Hour)
		wantFailure(t, reviewer.get(reviewPath(month)), http.StatusNotFound, "share-link-expired")
		wantStatus(t, reviewer.get(reviewPath(forever)), http.StatusOK)

		// A year on, Ana signs in again: sign-ins end.
		wantStatus(t, ana.login("ana@example.com", pw), http.StatusOK)
		var foreverID string
		for _, l := range ana.get("/api/shares").JSON(t)["links"].([]any) {
			if l := l.(map[string]any); l["expiry"] == string(share.ExpiryUntilRevoked) {
				foreverID = l["id"].(string)
			}
		}
		r := ana.post("/api/shares/"+foreverID+"/revoke", nil)
		wantStatus(t, r, http.StatusOK)
		if state := r.JSON(t)["link"].(map[string]any)["state"]; state != "revoked" {
			t.Fatalf("state %v", state)
		}
		wantFailure(t, reviewer.get(reviewPath(forever)), http.StatusNotFound, "share-link-revoked")
		wantFailure(t, reviewer.post(commentPath(forever), map[string]any{"body": "Still here?"}), http.StatusNotFound, "share-link-revoked")
		wantFailure(t, reviewer.get(reviewPath(forever+"x")), http.StatusNotFound, "share-link-not-found")
		states := map[string]int{}
		for _, l := range ana.get("/api/shares").JSON(t)["links"].([]any) {
			states[l.(map[string]any)["state"].(string)]++
		}
		if states["expired"] != 2 || states["revoked"] != 1 {
			t.Fatalf("states %v", states)
		}
	})
}

// Comments are plain text within bounds, on an answer the session has,
// and a link takes them at a bounded pace and in a bounded number.
func TestShareCommentsAreBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, _, savedID, token := sharedSession(t, app, share.ExpiryUntilRevoked)
		reviewer := app.browser(t, "10.9.0.1")
		for _, bad := range []map[string]any{
			{"body": "   "},
			{"body": strings.Repeat("é", share.MaxCommentLen+1)},
			{"itemIndex": 1, "body": "There is one answer."},
			{"itemIndex": -1, "body": "Before the first."},
		} {
			if r := reviewer.post(commentPath(token), bad); r.Status != http.StatusBadRequest && r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%.40v: %d %s", bad, r.Status, r.Body)
			}
		}
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": strings.Repeat("é", share.MaxCommentLen)}), http.StatusCreated)
		for i := 1; i < share.CommentRate.Limit; i++ {
			wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": fmt.Sprintf("Comment %d", i)}), http.StatusCreated)
		}
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": "One too many, too soon."}), http.StatusTooManyRequests)
		// Another link to the same session has its own pace.
		wantStatus(t, reviewer.post(commentPath(createLink(t, ana, savedID, share.ExpiryUntilRevoked)), map[string]any{"body": "Hi."}), http.StatusCreated)

		commentAtThePace(t, app, reviewer, token, share.CommentRate.Limit, share.MaxCommentsPerLink)
		app.Clock.Advance(share.CommentRate.Window)
		r := reviewer.post(commentPath(token), map[string]any{"body": "Past the last place."})
		if r.Status != http.StatusConflict || r.Detail(t) != share.MsgTooManyComments {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if left := reviewer.get(reviewPath(token)).JSON(t)["commentsLeft"]; left != 0.0 {
			t.Fatalf("commentsLeft %v", left)
		}
	})
}

// The data export holds the links and their comments; deleting the
// account deletes them, and its links stop opening.
func TestSharingIsExportedAndDeletedWithTheAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, _, _, token := sharedSession(t, app, share.ExpirySevenDays)
		reviewer := app.browser(t, "10.9.0.1")
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"itemIndex": 0, "body": "Slow down at the start."}), http.StatusCreated)

		sharing := ana.get("/api/account/export").JSON(t)["sharing"].(map[string]any)
		if links, comments := sharing["shareLinks"].([]any), sharing["shareComments"].([]any); len(links) != 1 || len(comments) != 1 ||
			comments[0].(map[string]any)["body"] != "Slow down at the start." {
			t.Fatalf("export %v", sharing)
		}
		wantStatus(t, ana.post("/api/account/delete", map[string]string{"password": pw}), http.StatusOK)
		for _, table := range []string{"session_shares", "share_comments"} {
			var n int
			if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s keeps %d rows (%v)", table, n, err)
			}
		}
		wantFailure(t, reviewer.get(reviewPath(token)), http.StatusNotFound, "share-link-not-found")
	})
}

// Bob, with Ana's real ids, can neither share her session, nor turn her
// link off, nor report a comment on it: each is answered as a missing
// one, and Ana's links and comments are as they were. Revoking used to
// write first and look for the link afterwards, so a revocation that lost
// its owner filter still answered 404 after turning Ana's link off.
func TestAnotherStudentChangesNoneOfAStudentsSharing(t *testing.T) {
	shareRows := func(t *testing.T, db *store.DB) string {
		return storetest.Rows(t, db, `SELECT * FROM session_shares ORDER BY id`, `SELECT * FROM share_comments ORDER BY id`)
	}
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, bob, savedID, token := sharedSession(t, app, share.ExpiryUntilRevoked)
		reviewer := app.browser(t, "10.9.0.1")
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": "Lead with the story."}), http.StatusCreated)
		linkID := ana.get("/api/shares").JSON(t)["links"].([]any)[0].(map[string]any)["id"].(string)
		commentID := ana.get("/api/shares/comments").JSON(t)["comments"].([]any)[0].(map[string]any)["id"].(string)

		before := shareRows(t, db)
		for _, tc := range []struct {
			name   string
			r      func() response
			detail string
		}{
			{"share", func() response {
				return bob.post("/api/shares", map[string]string{"savedSessionId": savedID, "reviewerName": "Bob's friend", "expiry": "7-days"})
			}, history.MsgSavedNotFound},
			{"revoke", func() response { return bob.post("/api/shares/"+linkID+"/revoke", nil) }, share.MsgNoSuchLink},
			{"report", func() response { return bob.post("/api/shares/comments/"+commentID+"/report", nil) }, share.MsgNoSuchComment},
		} {
			if r := tc.r(); r.Status != http.StatusNotFound || r.Detail(t) != tc.detail {
				t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
			}
			if after := shareRows(t, db); after != before {
				t.Fatalf("%s: Bob changed Ana's sharing:\nbefore:\n%s\nafter:\n%s", tc.name, before, after)
			}
		}
		// Ana's own requests still do what they did.
		first := ana.post("/api/shares/"+linkID+"/revoke", nil)
		if first.Status != http.StatusOK || first.JSON(t)["link"].(map[string]any)["state"] != "revoked" {
			t.Fatalf("Ana's revocation: %d %s", first.Status, first.Body)
		}
		app.Clock.Advance(time.Minute)
		// Revoking again changes nothing: the link was turned off when it was.
		again := ana.post("/api/shares/"+linkID+"/revoke", nil)
		if again.Status != http.StatusOK || again.JSON(t)["link"].(map[string]any)["revokedAt"] != first.JSON(t)["link"].(map[string]any)["revokedAt"] {
			t.Fatalf("revoking again: %d %s, first %s", again.Status, again.Body, first.Body)
		}
		wantStatus(t, ana.post("/api/shares/comments/"+commentID+"/report", nil), http.StatusOK)
		wantStatus(t, ana.post("/api/shares/nope/revoke", nil), http.StatusNotFound)
	})
}

// holdInserts keeps every insert into table waiting, on PostgreSQL, until
// release(waiting) sees that many of the app's statements waiting for a
// lock: the requests fired meanwhile have all got as far as they can
// before adding a row, so a cap counted outside a lock is counted by every
// one of them alike, on every run, rather than when the scheduler happens
// to interleave them. SQLite runs write transactions one at a time, so
// there it holds nothing.
func holdInserts(t *testing.T, db *store.DB, table string) (release func(waiting int)) {
	t.Helper()
	if db.Dialect != store.Postgres {
		return func(int) {}
	}
	tx, err := db.SQL.Begin()
	if err != nil {
		t.Fatal(err)
	}
	// EXCLUSIVE lets others read the table but not write to it.
	if _, err := tx.Exec(`LOCK TABLE ` + table + ` IN EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	return func(waiting int) {
		t.Helper()
		defer tx.Commit()
		deadline := time.Now().Add(30 * time.Second)
		for {
			var n int
			// The app's connections carry the schema's application_name,
			// as the test's own do.
			if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM pg_stat_activity
				WHERE application_name = current_setting('application_name') AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n >= waiting {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d requests wait for %s", n, waiting, table)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// lastPlaceAtOnce sends sent requests at once for the last place under a
// cap (of most rows, stored in table) and wants one of them to take it and
// the others refused, every one of them having counted before any added
// its row (holdInserts); count, a query, must then find most rows.
func lastPlaceAtOnce(t *testing.T, db *store.DB, table string, most, sent int, send func(i int) response, count string, args ...any) {
	t.Helper()
	release := holdInserts(t, db, table)
	answers := make([]response, sent)
	var wg sync.WaitGroup
	for i := range sent {
		wg.Go(func() { answers[i] = send(i) })
	}
	release(sent)
	wg.Wait()
	outcomes := map[int]int{}
	for _, r := range answers {
		outcomes[r.Status]++
	}
	if outcomes[http.StatusCreated] != 1 || outcomes[http.StatusConflict] != sent-1 {
		t.Errorf("outcomes %v: want one to take the last place and %d refused", outcomes, sent-1)
	}
	var stored int
	if err := db.SQL.QueryRow(count, args...).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != most {
		t.Fatalf("%d rows in %s under a cap of %d", stored, table, most)
	}
}

// On PostgreSQL parallel comments went past the cap (53 on a link of 50):
// each counted the link's comments, then inserted, and nothing made the
// next one wait for the count to include the last. Of comments sent at
// once for the last place, one takes it and the others are refused.
func TestParallelCommentsStopAtTheCap(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		_, _, _, token := sharedSession(t, app, share.ExpiryUntilRevoked)
		reviewer := app.browser(t, "10.9.0.2")
		commentAtThePace(t, app, reviewer, token, 0, share.MaxCommentsPerLink-1)
		app.Clock.Advance(share.CommentRate.Window)

		// As many as the pace lets through, so that each gets to the count.
		const sent = 10
		if sent > share.CommentRate.Limit {
			t.Fatalf("%d comments at once would meet the pace of %d", sent, share.CommentRate.Limit)
		}
		lastPlaceAtOnce(t, db, "share_comments", share.MaxCommentsPerLink, sent, func(i int) response {
			return app.browser(t, "10.9.1."+strconv.Itoa(i)).post(commentPath(token), map[string]any{"body": fmt.Sprintf("At once %d", i)})
		}, `SELECT COUNT(*) FROM share_comments`)
	})
}

// On PostgreSQL parallel requests made more links to a saved session than
// it may have (25 of 20), for the same reason as the comments.
func TestParallelLinksStopAtTheCap(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, nil)
		ana, _, savedID, _ := sharedSession(t, app, share.ExpiryUntilRevoked)
		for range share.MaxLinksPerSession - 2 {
			createLink(t, ana, savedID, share.ExpiryUntilRevoked)
		}

		lastPlaceAtOnce(t, db, "session_shares", share.MaxLinksPerSession, 10, func(int) response {
			return ana.post("/api/shares", map[string]string{"savedSessionId": savedID, "reviewerName": "Dr. Rivera", "expiry": string(share.ExpiryUntilRevoked)})
		}, `SELECT COUNT(*) FROM session_shares WHERE saved_session_id = $1`, savedID)
	})
}

// A reviewer who comments on several answers in a row sends the student
// one email, not one per comment (issue 41): the comments on a link gather
// in the one email waiting for it; another link has its own; once the
// email is sent, the next comment starts the next.
func TestCommentsOnALinkGatherInOneEmail(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		app := newTestApp(t, db, map[string]string{"COMMENT_MAIL_DELAY": "1h"})
		ana, _, savedID, token := sharedSession(t, app, share.ExpirySevenDays)
		other := createLink(t, ana, savedID, share.ExpirySevenDays)
		reviewer := app.browser(t, "10.9.0.2")
		waiting := func() int {
			t.Helper()
			var n int
			if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM river_job WHERE kind = $1 AND state = 'scheduled'`, share.CommentMailArgs{}.Kind()).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for i := range 3 {
			wantStatus(t, reviewer.post(commentPath(token), map[string]any{"itemIndex": 0, "body": fmt.Sprintf("Point %d.", i)}), http.StatusCreated)
		}
		if n := waiting(); n != 1 {
			t.Fatalf("three comments on one link wait in %d emails, want 1", n)
		}
		wantStatus(t, reviewer.post(commentPath(other), map[string]any{"body": "From the other link."}), http.StatusCreated)
		if n := waiting(); n != 2 {
			t.Fatalf("a comment on a second link: %d emails waiting, want 2", n)
		}
		// Sent (as the worker would leave it), the first link's email (the
		// first job) gathers nothing more: the next comment waits in a new one.
		if _, err := db.SQL.Exec(`UPDATE river_job SET state = 'completed', finalized_at = CURRENT_TIMESTAMP
			WHERE id = (SELECT MIN(id) FROM river_job WHERE kind = $1)`, share.CommentMailArgs{}.Kind()); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, reviewer.post(commentPath(token), map[string]any{"body": "One more thing."}), http.StatusCreated)
		if n := waiting(); n != 2 {
			t.Fatalf("after the first email was sent, a new comment: %d emails waiting, want 2", n)
		}
	})
}
