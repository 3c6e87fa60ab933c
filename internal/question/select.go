package question

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/whitecoat/whitecoat/internal/profession"
)

// Question counts a practice session may ask for.
const (
	MinCount     = 1
	MaxCount     = 10
	DefaultCount = 5
)

// Select picks the questions for one practice session from pool (never a
// scenario station: see SelectStations): with big3,
// the profession's Big 3 first in big3Order, then distinct random non-Big-3
// questions of that profession until count is reached or the pool runs out;
// with a focus, those of its subtag come before the others.
// A count of 0 means DefaultCount. A nil rng uses the global random source;
// tests pass a seeded one. The result never repeats an id or a text.
func Select(pool []Question, professionSlug string, count int, big3 bool, focus Subtag, rng *rand.Rand) ([]Question, error) {
	return draw(pool, professionSlug, count, big3, focus, false, rng)
}

// SelectStations picks count distinct random scenario stations of the
// profession from pool, those of focus first, for the formats that are
// built of stations (MMI, Casper-style).
func SelectStations(pool []Question, professionSlug string, count int, focus Subtag, rng *rand.Rand) ([]Question, error) {
	return draw(pool, professionSlug, count, false, focus, true, rng)
}

// draw is Select over the stations when stations is true, and over the
// questions asked on their own otherwise.
func draw(pool []Question, professionSlug string, count int, big3 bool, focus Subtag, stations bool, rng *rand.Rand) ([]Question, error) {
	p, ok := profession.Lookup(professionSlug)
	if !ok {
		return nil, fmt.Errorf("question: select: unknown profession %q", professionSlug)
	}
	if count == 0 {
		count = DefaultCount
	}
	if count < MinCount || count > MaxCount {
		return nil, fmt.Errorf("question: select: count %d is outside %d-%d", count, MinCount, MaxCount)
	}

	var bigThree, rest []Question
	for _, q := range pool {
		switch {
		case !q.HasTag(p.Slug), q.IsStation() != stations:
		case q.Big3:
			bigThree = append(bigThree, q)
		default:
			rest = append(rest, q)
		}
	}
	// Sorting first makes the outcome depend only on the seed and the pool's
	// contents, not on the order the store happened to return rows in.
	byIDThenText := func(a, b Question) int {
		return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Text, b.Text))
	}
	slices.SortFunc(bigThree, func(a, b Question) int {
		return cmp.Or(cmp.Compare(a.Big3Order, b.Big3Order), byIDThenText(a, b))
	})
	slices.SortFunc(rest, byIDThenText)
	shuffle := rand.Shuffle
	if rng != nil {
		shuffle = rng.Shuffle
	}
	shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	if focus != "" {
		outside := func(q Question) bool { return q.Subtag != focus }
		slices.SortStableFunc(rest, func(a, b Question) int {
			return cmp.Compare(boolRank(outside(a)), boolRank(outside(b)))
		})
	}

	picked := make([]Question, 0, count)
	seenIDs := map[string]bool{}
	seenTexts := map[string]bool{}
	take := func(qs []Question) {
		for _, q := range qs {
			if len(picked) == count {
				return
			}
			if (q.ID != "" && seenIDs[q.ID]) || seenTexts[q.askKey()] {
				continue
			}
			seenIDs[q.ID] = true
			seenTexts[q.askKey()] = true
			picked = append(picked, q)
		}
	}
	if big3 {
		take(bigThree)
	}
	take(rest)
	return picked, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
