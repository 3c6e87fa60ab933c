package history

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Limits of the history list. A search looks through the newest
// MaxSearchedSessions saved sessions that match the other filters, so
// that its cost does not grow with a history that saving sessions of
// skipped questions can make as long as anyone likes; a date filter
// reaches older ones.
const (
	PageSize            = 20
	MaxSearch           = 200
	MaxSearchedSessions = 500
)

// Query filters the saved sessions the history lists. Zero fields
// do not filter.
type Query struct {
	Profession string
	Format     practice.Format
	// From and To are whole days, To included.
	From, To time.Time
	// Search is text a question of the session contains.
	Search string
	// Page is 1-based.
	Page int
}

// HistoryPage is one page of the history, newest first, without items.
type HistoryPage struct {
	Sessions []Saved `json:"sessions"`
	Total    int     `json:"total"`
	Page     int     `json:"page"`
	PageSize int     `json:"pageSize"`
	// SearchLimited is true when a search looked through only the newest
	// SearchLimit of the sessions the other filters matched.
	SearchLimited bool `json:"searchLimited"`
	SearchLimit   int  `json:"searchLimit"`
}

// List lists the user's saved sessions, filtered and paged; locked as
// the saved sessions are when the trial expired or the pass ended.
func (s *Service) List(ctx context.Context, u auth.User, hq Query) (HistoryPage, error) {
	if err := s.checkOpen(ctx, u); err != nil {
		return HistoryPage{}, err
	}
	hq.Search = strings.Join(strings.Fields(hq.Search), " ")
	if utf8.RuneCountInString(hq.Search) > MaxSearch {
		return HistoryPage{}, apperr.Invalid("q", "The search must be at most %d characters.", MaxSearch)
	}
	if hq.Format != "" && !hq.Format.Known() {
		return HistoryPage{}, apperr.Invalid("format", "Unknown interview format %q.", hq.Format)
	}
	if !hq.From.IsZero() && !hq.To.IsZero() && hq.To.Before(hq.From) {
		return HistoryPage{}, apperr.Invalid("to", "The end date must not be before the start date.")
	}
	hq.Page = store.Page(hq.Page)
	page := HistoryPage{Page: hq.Page, PageSize: PageSize, SearchLimit: MaxSearchedSessions}
	var err error
	if page.Sessions, page.Total, err = savedPage(ctx, s.db.SQL, u.ID, hq, PageSize); err != nil {
		return HistoryPage{}, err
	}
	if hq.Search != "" {
		page.SearchLimited, err = moreThanSearched(ctx, s.db.SQL, u.ID, hq)
	}
	return page, err
}
