package practice

import (
	"context"
	"database/sql"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// The local speech engine recognises each voice at a scaling factor it
// chooses per answer by decoding a few seconds at every candidate (the
// probe, internal/transcribe/warp.go). A student's voice does not change
// between answers, so the factor chosen on one answer is remembered and
// given to the engine for the next ones, which then skip the probe.
//
// Someone else may answer on the same account (a shared laptop, a friend
// trying it out): after reprobeAfter answers at a remembered factor the
// next one is probed again, and an answer at a remembered factor in which
// nothing meaningful was recognised forgets it at once, as a factor that
// does not fit the voice loses many of its words. The OpenAI-compatible
// engine has no factor: nothing is remembered for it.

// reprobeAfter is how many answers are recognised at a remembered factor
// before one is probed again.
const reprobeAfter = 5

// VoiceFactor is the voice scaling factor remembered for a student.
type VoiceFactor struct {
	// Warp is the factor the speech engine scales the student's voice by
	// before recognizing it.
	Warp float64 `json:"warp" doc:"The factor the speech engine scales the voice's frequencies down by before recognizing it (1: unscaled)."`
	// ChosenAt is when the engine chose it on one of their answers.
	ChosenAt time.Time `json:"chosenAt" doc:"When the speech engine chose it, on one of the user's answers."`
	// Answers have been recognised at it since.
	Answers int `json:"answers" doc:"Answers recognized at it since; after a few the engine chooses again."`
}

// startingWarp is the factor to give the engine for an answer of the
// session's student: their remembered one, or 0 to have it probed.
func (s *Service) startingWarp(ctx context.Context, sessionID string) float64 {
	if s.incremental == nil {
		return 0
	}
	v, err := sessionVoice(ctx, s.db.SQL, sessionID)
	if err != nil {
		// Only costs the probe.
		s.logger.Warn("could not read the remembered voice factor", "session", sessionID, "err", err)
		return 0
	}
	if v == nil || v.Answers >= reprobeAfter {
		return 0
	}
	return v.Warp
}

// rememberVoice updates the session's student's factor after one of their
// answers was recognised with res, inside the transaction that saves its
// transcript.
func rememberVoice(ctx context.Context, tx *sql.Tx, sessionID string, res transcribe.Result, meaningful bool, now time.Time) error {
	switch {
	case res.Warp == 0:
		return nil // no speech, or an engine without a factor
	case res.WarpProbed:
		return saveVoice(ctx, tx, sessionID, res.Warp, now)
	case !meaningful:
		return forgetVoice(ctx, tx, sessionID, res.Warp)
	}
	return countVoiceAnswer(ctx, tx, sessionID, res.Warp, now)
}
