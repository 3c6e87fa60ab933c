package history

import (
	"context"
	"math"
	"time"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/question"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/video"
)

// ProgressQuery chooses the answers the progress views are drawn from.
// Zero fields do not filter.
type ProgressQuery struct {
	Profession string
	Subtag     question.Subtag
}

// SectionAverages are a session's section scores, averaged over its
// scored answers.
type SectionAverages struct {
	OverallImpression float64 `json:"overallImpression"`
	ClarityStructure  float64 `json:"clarityStructure"`
	Content           float64 `json:"content"`
}

// TrendPoint is one completed session in the trends: the mean of its
// scored answers that match the query.
type TrendPoint struct {
	SessionID  string `json:"sessionId"`
	Profession string `json:"profession"`
	// At is when the session started.
	At           time.Time       `json:"at"`
	Answers      int             `json:"answers"`
	OverallScore float64         `json:"overallScore"`
	Sections     SectionAverages `json:"sectionScores"`
	// The delivery figures are null when no answer of the session was
	// measured from a recording (a typed answer has none); the longest
	// pause also needs word timings, and fillers per minute a count (an
	// estimate that found none is not one).
	WordsPerMinute      *float64 `json:"wordsPerMinute"`
	FillersPerMinute    *float64 `json:"fillersPerMinute"`
	LongestPauseSeconds *float64 `json:"longestPauseSeconds"`
	// The presence figures are null when no answer of the session was
	// watched well enough to judge (video.Delivery.Judgeable): eye contact
	// as a share of the time in the frame, and the share framed well (the
	// longest framing problem taken away).
	EyeContactPercent *float64 `json:"eyeContactPercent"`
	WellFramedPercent *float64 `json:"wellFramedPercent"`
}

// AnswerRef points at one scored answer, for the competency map.
type AnswerRef struct {
	SessionID    string    `json:"sessionId"`
	ItemID       string    `json:"itemId"`
	Question     string    `json:"question"`
	AnsweredAt   time.Time `json:"answeredAt"`
	OverallScore int       `json:"overallScore"`
}

// MaxCompetencyAnswers is how many answers the map lists under one
// competency, newest first; Count says how many there are in all.
const MaxCompetencyAnswers = 5

// CompetencyShown is one competency and the answers that showed it; none
// is a gap.
type CompetencyShown struct {
	Competency feedback.Competency `json:"competency"`
	Count      int                 `json:"count"`
	Answers    []AnswerRef         `json:"answers"`
}

// Progress is what the progress page shows.
type Progress struct {
	// Locked is true while the saved sessions are locked (the trial
	// expired or the pass ended); the lists are then empty.
	Locked bool `json:"locked"`
	// Subtags are the question types the student has answered, to filter by.
	Subtags []question.Subtag `json:"subtags"`
	// Points are the completed sessions, oldest first.
	Points []TrendPoint `json:"points"`
	// Competencies lists every competency, in feedback.Competencies order.
	Competencies []CompetencyShown `json:"competencies"`
}

// Progress draws the student's trends and competency map from their
// scored answers in completed sessions.
func (s *Service) Progress(ctx context.Context, u auth.User, pq ProgressQuery) (Progress, error) {
	out := Progress{Subtags: []question.Subtag{}, Points: []TrendPoint{}, Competencies: []CompetencyShown{}}
	locked, err := s.locked(ctx, u)
	if err != nil {
		return Progress{}, err
	}
	if locked {
		out.Locked = true
		return out, nil
	}
	answers, err := s.practice.CompletedAnswers(ctx, u.ID, pq.Profession)
	if err != nil {
		return Progress{}, err
	}
	seen := map[question.Subtag]bool{}
	var matching []practice.ScoredAnswer
	for _, a := range answers {
		if a.Subtag != "" {
			seen[a.Subtag] = true
		}
		if pq.Subtag == "" || a.Subtag == pq.Subtag {
			matching = append(matching, a)
		}
	}
	for _, st := range question.Subtags() {
		if seen[st] {
			out.Subtags = append(out.Subtags, st)
		}
	}
	out.Points = trend(matching)
	out.Competencies = competencyMap(matching)
	return out, nil
}

// trend averages the answers session by session; answers come grouped
// by session, oldest session first.
func trend(answers []practice.ScoredAnswer) []TrendPoint {
	points := []TrendPoint{}
	var acc trendSums
	for i, a := range answers {
		acc.add(a)
		if i == len(answers)-1 || answers[i+1].SessionID != a.SessionID {
			points = append(points, acc.point(a))
			acc = trendSums{}
		}
	}
	return points
}

type trendSums struct {
	answers             int
	overall, impression float64
	clarity, content    float64
	contentJudged       int // answers whose content was judged (feedback.ContentUnjudged)
	measured            int
	wpm                 float64
	fillersCounted      int // measured answers with a fillers figure (see add)
	fillersPerMinute    float64
	pauseMeasured       bool
	longestPause        float64
	watched             int // video answers whose presence was judged
	eyeContact          float64
	wellFramed          float64
}

func (t *trendSums) add(a practice.ScoredAnswer) {
	t.answers++
	t.overall += float64(a.Feedback.OverallScore)
	t.impression += float64(a.Feedback.SectionScores.OverallImpression)
	t.clarity += float64(a.Feedback.SectionScores.ClarityStructure)
	if !a.Feedback.ContentUnjudged {
		t.contentJudged++
		t.content += float64(a.Feedback.SectionScores.Content)
	}
	if m := a.Metrics; m != nil && m.DurationSeconds > 0 {
		t.measured++
		t.wpm += m.WordsPerMinute
		// An engine that drops hesitations has its fillers estimated from
		// the words; its 0 is no measure (the answer's card says "Not
		// measured"), and averaged in it would look like fewer fillers.
		if m.FillersSource != transcribe.FillersEstimated {
			t.fillersCounted++
			t.fillersPerMinute += m.FillersPerMinute
		}
		if m.PausesMeasured {
			t.pauseMeasured = true
			t.longestPause = max(t.longestPause, m.LongestPauseSeconds)
		}
	}
	if v := a.Video; v != nil && v.Judgeable() == "" {
		t.watched++
		t.eyeContact += video.Share(v.EyeContactSeconds, v.FaceSeconds)
		_, worst := v.Framing.Worst()
		t.wellFramed += 1 - video.Share(worst, v.FaceSeconds)
	}
}

func (t *trendSums) point(last practice.ScoredAnswer) TrendPoint {
	n := float64(t.answers)
	p := TrendPoint{SessionID: last.SessionID, Profession: last.Profession, At: last.SessionStarted, Answers: t.answers,
		OverallScore: round1(t.overall / n),
		Sections:     SectionAverages{OverallImpression: round1(t.impression / n), ClarityStructure: round1(t.clarity / n), Content: round1(t.content / float64(max(t.contentJudged, 1)))}}
	if t.measured > 0 {
		p.WordsPerMinute = ptr(round1(t.wpm / float64(t.measured)))
	}
	if t.fillersCounted > 0 {
		p.FillersPerMinute = ptr(round1(t.fillersPerMinute / float64(t.fillersCounted)))
	}
	if t.pauseMeasured {
		p.LongestPauseSeconds = ptr(round1(t.longestPause))
	}
	if t.watched > 0 {
		p.EyeContactPercent = ptr(round1(100 * t.eyeContact / float64(t.watched)))
		p.WellFramedPercent = ptr(round1(100 * t.wellFramed / float64(t.watched)))
	}
	return p
}

// competencyMap lists, for every competency, the answers tagged with it,
// newest first.
func competencyMap(answers []practice.ScoredAnswer) []CompetencyShown {
	byCompetency := map[feedback.Competency]*CompetencyShown{}
	out := make([]CompetencyShown, len(feedback.Competencies))
	for i, c := range feedback.Competencies {
		out[i] = CompetencyShown{Competency: c, Answers: []AnswerRef{}}
		byCompetency[c] = &out[i]
	}
	for i := len(answers) - 1; i >= 0; i-- {
		for _, c := range answers[i].Feedback.Competencies {
			shown, ok := byCompetency[c]
			if !ok {
				continue // a competency a later rubric no longer tags
			}
			shown.Count++
			if len(shown.Answers) < MaxCompetencyAnswers {
				shown.Answers = append(shown.Answers, refTo(answers[i]))
			}
		}
	}
	return out
}

// refTo points at a for the competency map: an answer is dated by its
// session, as everywhere in the history.
func refTo(a practice.ScoredAnswer) AnswerRef {
	return AnswerRef{SessionID: a.SessionID, ItemID: a.ItemID, Question: a.Question, AnsweredAt: a.SessionStarted, OverallScore: a.Feedback.OverallScore}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func ptr[T any](v T) *T { return &v }
