package tryout

import (
	"time"

	"github.com/whitecoat/whitecoat/internal/answer"
	"github.com/whitecoat/whitecoat/internal/apperr"
)

// The bounds of a try, declared here once: the API contract publishes them
// and the landing page reads them from there.
const (
	// MaxAnswerSeconds is how long a spoken try may run.
	MaxAnswerSeconds = 120
	// MaxAudioBytes caps a try's recording: two minutes of Opus or AAC
	// from a browser is well under 4 MiB.
	MaxAudioBytes = 8 << 20
	// MaxTypedChars caps a typed try: two minutes of speech is about
	// 400 words.
	MaxTypedChars = 4000
	// Lifetime is how long a try is kept: then it is swept.
	Lifetime = 24 * time.Hour
)

// statusKeeping is a scored try being carried into an account: stored
// only, shown as done. It stops a second request from keeping it too
// while the first may still fail and give it back.
const statusKeeping answer.Status = "keeping"

// inProgress are the statuses of a try waiting for or in recognition or
// scoring: what the caps on tries in progress count.
var inProgress = []answer.Status{answer.StatusQueued, answer.StatusTranscribing, answer.StatusScoring}

// Failures a visitor is told apart from others.
var (
	// FailureTooManyFromNetwork: this address has tried too often this
	// hour, or has a try still being scored.
	FailureTooManyFromNetwork = apperr.Failure{Name: "too-many-tries-from-network",
		Message: "Too many tries from your network right now — sign up to keep practicing."}
	// FailureTooManyOverall: every visitor together has tried too often
	// this hour, or too many tries are being scored at once.
	FailureTooManyOverall = apperr.Failure{Name: "too-many-tries-overall",
		Message: "Too many people are trying Whitecoat right now — sign up to keep practicing."}
	// FailureTryFailed: the try could not be transcribed or scored.
	FailureTryFailed = apperr.Failure{Name: "try-failed",
		Message: "We could not score this answer. Check that your microphone is on and try again, or type your answer."}
)

// Texts of a refused try.
const (
	MsgTypedEmpty        = "Type an answer before you submit it."
	MsgNotARecord        = "This is not a recording we can play. Record again, or type your answer."
	MsgTryNotFound       = "This try is no longer here: tries are kept for 24 hours."
	MsgNothingToKeep     = "Only an answer that was scored can be saved."
	MsgUnknownProfession = "unknown profession %q"
)

// Try is one visitor's answer to a profession's default question: an
// answer like any other (internal/answer), which moves through the same
// steps as a practice answer and is shown by the same card.
type Try struct {
	// ID is the token the visitor's browser holds: the only way to read it.
	ID         string `json:"id"`
	Profession string `json:"profession"`
	answer.Answer
	// ExpiresAt is when the try is swept.
	ExpiresAt time.Time `json:"expiresAt"`
}

// Limits bound tries: per address and for everyone together, per hour
// and at once. The configuration sets the per-address one
// (TRY_LIMIT_PER_IP); DefaultLimits are the others.
//
// No one actor may spend everyone's hourly tries alone (issue 38: 63
// addresses spent them in 30 s): only admitted tries count toward the
// overall caps (not attempts a busy network or a full queue refused), a
// /24 or IPv6 /48 (ratelimit.Block) has a budget of its own beside each
// network's, and typed tries, which skip recognition, count against a
// larger cap of their own.
type Limits struct {
	PerAddressPerHour int
	// PerBlockPerHour is the budget of the networks of one /24 or /48
	// together.
	PerBlockPerHour int
	// OverallPerHour caps everyone's spoken tries; OverallTypedPerHour
	// their typed ones.
	OverallPerHour      int
	OverallTypedPerHour int
	// InProgressOverall is how many tries may be waiting for or in
	// recognition at once; one address may have one.
	InProgressOverall int
}

// DefaultLimits keep anonymous recognition to a trickle beside students'
// answers. A block's 25 is five networks' worth at the default
// TRY_LIMIT_PER_IP: a spoken flood now needs 12 blocks to spend the
// overall 300. A typed try costs the rubric engine milliseconds and no
// recognition, so 3,000 of them an hour cost less than 300 spoken ones.
var DefaultLimits = Limits{PerBlockPerHour: 25, OverallPerHour: 300, OverallTypedPerHour: 3000, InProgressOverall: 10}

// Queue is the River queue tries are transcribed and scored on, with
// Workers workers per server: apart from students' answers, so a burst of
// tries waits its turn there instead of in front of them.
const (
	Queue   = "tryout"
	Workers = 1
)
