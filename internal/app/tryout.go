package app

import (
	"context"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// keepTry saves a try made before signing up in the new account's
// history, through history's API: tryout writes no table of history's.
func (a *App) keepTry(ctx context.Context, u auth.User, k tryout.Kept) error {
	tried := history.TriedAnswer{TryID: k.ID, Profession: k.Profession, Answer: k.Answer, AnsweredAt: k.AnsweredAt}
	_, err := a.history.KeepTried(ctx, u, tried)
	return err
}
