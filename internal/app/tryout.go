package app

import (
	"context"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/tryout"
)

// keepTry saves a try made before signing up in the new account's
// history, through practice's API: tryout writes no table of practice's.
func (a *App) keepTry(ctx context.Context, u auth.User, k tryout.Kept) error {
	answer := practice.TriedAnswer{TryID: k.ID, Profession: k.Profession, Question: k.Question, Kind: string(k.Kind), Metrics: k.Metrics,
		Feedback: k.Feedback, AnsweredAt: k.AnsweredAt}
	if k.Transcript != nil {
		answer.Transcript = *k.Transcript
	}
	if k.Meaningful != nil {
		answer.Meaningful = *k.Meaningful
	}
	_, err := a.practice.KeepTried(ctx, u, answer)
	return err
}
