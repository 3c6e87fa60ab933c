package history_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
)

// A session's time means one thing wherever it shows (issue 30 item 6):
// when it was practised. Saved two hours after it was practised, its saved
// copy on the dashboard and in the history, its default title and its
// point in the progress all say when it was practised.
func TestASavedSessionKeepsTheTimeItWasPractised(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var now atomic.Int64 // the service's clock, in Unix nanoseconds
		now.Store(time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC).UnixNano())
		f := practicetest.NewClocked(t, db, func() time.Time { return time.Unix(0, now.Load()).UTC() }, nil)
		ana := f.User(t, "ana@example.com")
		ctx := context.Background()
		s := f.Practise(t, ana, practicetest.Spoken, practicetest.CustomSession("dental", "Why dentistry?"))
		now.Add(int64(2 * time.Hour))

		saved, err := f.History.Save(ctx, ana(), s.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		practised := s.CreatedAt
		if !saved.CreatedAt.Equal(practised) {
			t.Errorf("saved at %v, practised at %v", saved.CreatedAt, practised)
		}
		if want := "Session Mar 14, 2026 9:30 AM UTC"; saved.Title != want {
			t.Errorf("default title %q, want %q", saved.Title, want)
		}
		d, err := f.History.Dashboard(ctx, ana())
		if err != nil || len(d.RecentSessions) != 1 || !d.RecentSessions[0].CreatedAt.Equal(practised) {
			t.Errorf("dashboard: %+v %v", d.RecentSessions, err)
		}
		h, err := f.History.List(ctx, ana(), history.Query{From: practised, To: practised})
		if err != nil || len(h.Sessions) != 1 || !h.Sessions[0].CreatedAt.Equal(practised) {
			t.Errorf("history of the day practised: %+v %v", h.Sessions, err)
		}
		p, err := f.History.Progress(ctx, ana(), history.ProgressQuery{})
		if err != nil || len(p.Points) != 1 || !p.Points[0].At.Equal(practised) {
			t.Errorf("progress: %+v %v", p.Points, err)
		}
	})
}
