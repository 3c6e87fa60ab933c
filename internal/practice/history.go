package practice

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Limits of the history list.
const (
	HistoryPageSize  = 20
	MaxHistorySearch = 200
)

// HistoryQuery filters the saved sessions the history lists. Zero fields
// do not filter.
type HistoryQuery struct {
	Profession string
	Format     Format
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
}

// History lists the user's saved sessions, filtered and paged; locked as
// the saved sessions are when the trial expired or the pass ended.
func (s *Service) History(ctx context.Context, u auth.User, hq HistoryQuery) (HistoryPage, error) {
	if billing.Evaluate(billing.AccountOf(u), s.clock()).HistoryLocked {
		return HistoryPage{}, apperr.Forbidden(billing.MsgLocked)
	}
	hq.Search = strings.Join(strings.Fields(hq.Search), " ")
	if utf8.RuneCountInString(hq.Search) > MaxHistorySearch {
		return HistoryPage{}, apperr.Invalid("q", "The search must be at most %d characters.", MaxHistorySearch)
	}
	if hq.Format != "" && !slices.Contains(formats, hq.Format) {
		return HistoryPage{}, apperr.Invalid("format", "Unknown interview format %q.", hq.Format)
	}
	if !hq.From.IsZero() && !hq.To.IsZero() && hq.To.Before(hq.From) {
		return HistoryPage{}, apperr.Invalid("to", "The end date must not be before the start date.")
	}
	hq.Page = store.Page(hq.Page)
	page := HistoryPage{Page: hq.Page, PageSize: HistoryPageSize}
	var err error
	if hq.Search == "" {
		page.Sessions, page.Total, err = savedPage(ctx, s.db.SQL, u.ID, hq, HistoryPageSize)
		return page, err
	}
	// A student's saved sessions are few enough to search in memory,
	// where the questions are decoded rather than matched in stored JSON.
	all, err := savedMatching(ctx, s.db.SQL, u.ID, hq)
	if err != nil {
		return HistoryPage{}, err
	}
	found := []Saved{}
	for _, sv := range all {
		if askedAbout(sv, hq.Search) {
			sv.Items = []SavedItem{}
			found = append(found, sv)
		}
	}
	page.Total = len(found)
	start := min((hq.Page-1)*HistoryPageSize, len(found))
	page.Sessions = found[start:min(start+HistoryPageSize, len(found))]
	return page, nil
}

// askedAbout reports whether a question of sv contains search, ignoring case.
func askedAbout(sv Saved, search string) bool {
	search = strings.ToLower(search)
	for _, it := range sv.Items {
		if strings.Contains(strings.ToLower(it.Question), search) {
			return true
		}
	}
	return false
}
