package rubric

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/feedback/feedbacktest"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Issue 42 item 3: a video answer's presence on camera, measured on the
// device, is shown with its targets and the moment that cost most, and
// counts in the delivery; a measurement too poor to judge says so and
// judges nothing.

func watchedInput(d video.Delivery) feedback.Input {
	in := feedbacktest.StarInput(feedbacktest.StarAnswer)
	in.Video = &d
	return in
}

// present is a minute on camera: looking at it, centered, still.
var present = video.Delivery{Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, FaceSeconds: 60, EyeContactSeconds: 55, HeadMovement: 3}

// downcast looks down for most of it, once for 9 s from 0:41.
var downcast = video.Delivery{Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, FaceSeconds: 58, EyeContactSeconds: 20, HeadMovement: 6,
	LooksAway: []video.LookAway{{AtSeconds: 5, Seconds: 3, Toward: video.DirectionLeft}, {AtSeconds: 41, Seconds: 9, Toward: video.DirectionDown}}}

func evidenceOf(fb feedback.Feedback, criterion string) (feedback.Evidence, bool) {
	i := slices.IndexFunc(fb.Evidence, func(e feedback.Evidence) bool { return e.Criterion == criterion })
	if i < 0 {
		return feedback.Evidence{}, false
	}
	return fb.Evidence[i], true
}

func TestPresenceIsShownWithItsTargets(t *testing.T) {
	fb := score(t, watchedInput(present))
	for _, c := range []struct{ criterion, note string }{
		{criterionEyeContact, "looking at the camera 92% of the time your face was in the frame (aim for 60% or more)"},
		{criterionFraming, "well framed"},
		{criterionSteadiness, "head movement 3° per second (steady is under 12°)"},
	} {
		e, ok := evidenceOf(fb, c.criterion)
		if !ok || !e.Met || !strings.Contains(e.Note, c.note) || e.Section != feedback.SectionOverallImpression {
			t.Errorf("%s: got %+v (found %v), want met with %q", c.criterion, e, ok, c.note)
		}
	}
	audio := score(t, feedbacktest.StarInput(feedbacktest.StarAnswer))
	if _, ok := evidenceOf(audio, criterionEyeContact); ok {
		t.Error("an audio answer was judged on eye contact")
	}
}

func TestLookingDownCostsAndSaysWhen(t *testing.T) {
	fb := score(t, watchedInput(downcast))
	e, _ := evidenceOf(fb, criterionEyeContact)
	if e.Met {
		t.Errorf("34%% eye contact was met: %+v", e)
	}
	joined := strings.Join(fb.Suggestions, "\n")
	if !strings.Contains(joined, "You looked down for 9 s from 0:41") {
		t.Errorf("suggestions do not name the costliest moment:\n%s", joined)
	}
	good := score(t, watchedInput(present))
	if fb.SectionScores.OverallImpression >= good.SectionScores.OverallImpression {
		t.Errorf("looking down scored impression %d, looking at the camera %d", fb.SectionScores.OverallImpression, good.SectionScores.OverallImpression)
	}
}

// A measurement too poor to judge is said to be, and the answer is judged
// as an audio answer is: the same scores, no presence suggestion.
func TestPoorMeasurementJudgesNothing(t *testing.T) {
	audio := score(t, feedbacktest.StarInput(feedbacktest.StarAnswer))
	for name, d := range map[string]video.Delivery{
		"no face":     {Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, FaceSeconds: 10, EyeContactSeconds: 2},
		"dark":        {Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, DarkSeconds: 50, FaceSeconds: 5},
		"unavailable": {Status: video.StatusUnavailable, WatchedSeconds: 60},
	} {
		fb := score(t, watchedInput(d))
		e, ok := evidenceOf(fb, criterionVideo)
		if !ok || e.Unjudged != feedback.UnjudgedNotMeasured || !strings.HasPrefix(e.Note, "Not measured: ") {
			t.Errorf("%s: got %+v, want the video delivery not measured", name, e)
		}
		if _, ok := evidenceOf(fb, criterionEyeContact); ok {
			t.Errorf("%s: eye contact judged from a poor measurement", name)
		}
		if fb.OverallScore != audio.OverallScore || fb.SectionScores != audio.SectionScores || !slices.Equal(fb.Suggestions, audio.Suggestions) {
			t.Errorf("%s: scored %d %+v, the same answer unwatched %d %+v", name, fb.OverallScore, fb.SectionScores, audio.OverallScore, audio.SectionScores)
		}
	}
}

// Whatever a measurement that passes video.Check says, the answer scores
// no more than with the best a real camera could report.
func TestNoValidMeasurementBeatsTheBestRealOne(t *testing.T) {
	best := score(t, watchedInput(video.Delivery{Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, FaceSeconds: 60, EyeContactSeconds: 60}))
	rng := rand.New(rand.NewPCG(42, 42))
	for range 300 {
		watched := 1 + rng.Float64()*180
		face := rng.Float64() * watched
		d := video.Delivery{Status: video.StatusMeasured, WatchedSeconds: watched, Frames: rng.IntN(int(watched*video.MaxFramesPerSecond) + 1), FaceSeconds: face,
			EyeContactSeconds: rng.Float64() * face, DarkSeconds: rng.Float64() * watched, HeadMovement: rng.Float64() * 40,
			Framing: video.Framing{OffCenterSeconds: rng.Float64() * face}}
		if err := d.Check(180); err != nil {
			t.Fatalf("generated an invalid measurement %+v: %v", d, err)
		}
		if fb := score(t, watchedInput(d)); fb.OverallScore > best.OverallScore {
			t.Fatalf("%+v scored %d, more than the best real measurement's %d", d, fb.OverallScore, best.OverallScore)
		}
	}
}
