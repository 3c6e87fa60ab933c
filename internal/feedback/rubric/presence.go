package rubric

import (
	"fmt"
	"math"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Presence on camera (issue 42): eye contact, framing and steadiness, as
// the student's browser measured them (video.Delivery). Interviewers judge
// presence, so a measured answer's delivery counts it; an answer measured
// too poorly to judge (or not at all) says so and is judged on its voice
// alone, as an audio answer is.

// Targets, as shares of the time a face was in the frame.
const (
	// eyeContactTarget: looking at the interviewer most of the time, with
	// room to look away and think.
	eyeContactTarget = 0.6
	// framingProblemLimit: framed badly one way for no more than this.
	framingProblemLimit = 0.2
	// steadyHeadMovement: degrees per second of head movement a steady
	// speaker stays under (nods and turns while talking included).
	steadyHeadMovement = 12
	// presenceWeight is presence's part of the delivery score.
	presenceWeight = 0.2
	// costlyLookAwaySeconds: a look away this long is worth a suggestion.
	costlyLookAwaySeconds = 4
)

// Criteria of the presence evidence.
const (
	criterionEyeContact = "eye contact"
	criterionFraming    = "framing"
	criterionSteadiness = "steadiness"
	criterionVideo      = "video delivery"
)

type presence struct {
	d *video.Delivery
	// unmeasured says why d cannot be judged; "" when it can.
	unmeasured video.Unmeasured
}

func measurePresence(d *video.Delivery) *presence {
	if d == nil {
		return nil // an audio or typed answer: nothing was watched
	}
	return &presence{d: d, unmeasured: d.Judgeable()}
}

func (p *presence) judged() bool { return p != nil && p.unmeasured == "" }

func (p *presence) eyeContact() float64 { return video.Share(p.d.EyeContactSeconds, p.d.FaceSeconds) }

func (p *presence) framingProblem() (string, float64) {
	problem, seconds := p.d.Framing.Worst()
	return problem, video.Share(seconds, p.d.FaceSeconds)
}

// score is 0-100: mostly eye contact, then framing, then steadiness.
func (p *presence) score() float64 {
	_, framing := p.framingProblem()
	return 0.5*piecewise(p.eyeContact(), []float64{0.2, eyeContactTarget}, []float64{40, 100}) +
		0.3*piecewise(framing, []float64{framingProblemLimit, 0.6}, []float64{100, 40}) +
		0.2*piecewise(p.d.HeadMovement, []float64{steadyHeadMovement, 30}, []float64{100, 50})
}

func percent(share float64) int { return int(math.Round(share * 100)) }

func (p *presence) evidence() []feedback.Evidence {
	if p == nil {
		return nil
	}
	if !p.judged() {
		return []feedback.Evidence{{Section: feedback.SectionOverallImpression, Criterion: criterionVideo, Unjudged: feedback.UnjudgedNotMeasured,
			Note: p.unmeasured.Note()}}
	}
	eye := p.eyeContact()
	problem, framing := p.framingProblem()
	framingNote := fmt.Sprintf("well framed throughout (aim: framed badly under %d%% of the time)", percent(framingProblemLimit))
	if problem != "" {
		framingNote = fmt.Sprintf("%s %d%% of the time (aim for under %d%%)", problem, percent(framing), percent(framingProblemLimit))
	}
	return []feedback.Evidence{
		{Section: feedback.SectionOverallImpression, Criterion: criterionEyeContact, Met: eye >= eyeContactTarget,
			Note: fmt.Sprintf("looking at the camera %d%% of the time your face was in the frame (aim for %d%% or more)", percent(eye), percent(eyeContactTarget))},
		{Section: feedback.SectionOverallImpression, Criterion: criterionFraming, Met: framing <= framingProblemLimit, Note: framingNote},
		{Section: feedback.SectionOverallImpression, Criterion: criterionSteadiness, Met: p.d.HeadMovement <= steadyHeadMovement,
			Note: fmt.Sprintf("head movement %.0f° per second (steady is under %d°)", p.d.HeadMovement, steadyHeadMovement)},
	}
}

// longestLookAway is the look away that cost most: the longest.
func (p *presence) longestLookAway() (video.LookAway, bool) {
	var longest video.LookAway
	for _, l := range p.d.LooksAway {
		if l.Seconds > longest.Seconds {
			longest = l
		}
	}
	return longest, longest.Seconds > 0
}

// lookedAwayText says a look away as the student would: "You looked down
// for 9 s from 0:41".
func lookedAwayText(l video.LookAway) string {
	at := int(math.Round(l.AtSeconds))
	where := "were out of the frame"
	if l.Toward != video.DirectionOutOfFrame {
		where = "looked " + string(l.Toward)
	}
	return fmt.Sprintf("You %s for %.0f s from %d:%02d", where, l.Seconds, at/60, at%60)
}

func (p *presence) suggestions() []suggestion {
	if !p.judged() {
		return nil
	}
	var out []suggestion
	if p.eyeContact() < eyeContactTarget {
		text := fmt.Sprintf("Look at the camera as you would at your interviewer: you did %d%% of the time.", percent(p.eyeContact()))
		if l, ok := p.longestLookAway(); ok && l.Seconds >= costlyLookAwaySeconds {
			text += " " + lookedAwayText(l) + "; glance away to think, then come back."
		}
		out = append(out, suggestion{50, "more eye contact", text})
	} else if l, ok := p.longestLookAway(); ok && l.Seconds >= costlyLookAwaySeconds*2 {
		out = append(out, suggestion{40, "more eye contact", lookedAwayText(l) + ": come back to the camera sooner, as you would to an interviewer."})
	}
	if problem, share := p.framingProblem(); share > framingProblemLimit {
		out = append(out, suggestion{44, "better framing", fmt.Sprintf(
			"Set up your camera so your face sits in the middle of the frame, head and shoulders in view: you were %s %d%% of the time.", problem, percent(share))})
	}
	if p.d.HeadMovement > steadyHeadMovement {
		out = append(out, suggestion{38, "a steadier posture", fmt.Sprintf(
			"Sit still and upright: your head moved %.0f° per second on average; nod when it means something.", p.d.HeadMovement)})
	}
	return out
}
