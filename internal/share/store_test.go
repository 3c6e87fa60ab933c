package share

import (
	"context"
	"errors"
	"testing"

	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// Every statement on a student's links and comments names the student:
// the ones that follow a request's first statement too (reading the link
// just revoked, the comment just reported, counting a saved session's
// links), so that none acts on another student's rows the day a caller
// forgets to look first. The requests themselves are tested over HTTP
// (TestAnotherStudentChangesNoneOfAStudentsSharing).
func TestLinkAndCommentStatementsActOnlyOnTheUsersOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		storetest.Users(t, db, "ana", "bob")
		link := storedLink{Link: Link{ID: "link", SavedSessionID: "saved", ReviewerName: "Dr. Rivera", Expiry: ExpiryUntilRevoked, CreatedAt: now}, UserID: "ana"}
		if err := insertLink(ctx, db.SQL, link, "hash"); err != nil {
			t.Fatal(err)
		}
		if err := insertComment(ctx, db.SQL, Comment{ID: "comment", ShareID: link.ID, AuthorName: "Dr. Rivera", Body: "Good.", CreatedAt: now}); err != nil {
			t.Fatal(err)
		}

		if _, err := linkOf(ctx, db.SQL, "bob", link.ID, now); !errors.Is(err, errNotFound) {
			t.Errorf("Bob read Ana's link: %v", err)
		}
		if _, err := commentOf(ctx, db.SQL, "bob", "comment"); !errors.Is(err, errNotFound) {
			t.Errorf("Bob read a comment on Ana's link: %v", err)
		}
		if n, err := countLinksOf(ctx, db.SQL, "bob", link.SavedSessionID); err != nil || n != 0 {
			t.Errorf("Bob counted %d of Ana's links (%v)", n, err)
		}
		if err := revokeLink(ctx, db.SQL, "bob", link.ID, now); !errors.Is(err, errNotFound) {
			t.Errorf("Bob revoked Ana's link: %v", err)
		}
		if reported, err := reportComment(ctx, db.SQL, "bob", "comment", now); err != nil || reported {
			t.Errorf("Bob reported a comment on Ana's link: %v %v", reported, err)
		}
		got, err := linkOf(ctx, db.SQL, "ana", link.ID, now)
		if err != nil || got.State != StateActive {
			t.Fatalf("Ana's link after Bob's statements: %+v %v", got, err)
		}
		c, err := commentOf(ctx, db.SQL, "ana", "comment")
		if err != nil || c.ReportedAt != nil {
			t.Fatalf("the comment after Bob's statements: %+v %v", c, err)
		}
	})
}
