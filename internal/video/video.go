// Package video is what the student's own browser measured of a video
// answer (issue 42): how long a face was in the frame, how it was framed,
// how much of the time the student looked at the camera, how steady their
// head was and the long looks away. The browser runs the face mesh on the
// device; only these numbers reach the server, which checks that they are
// numbers a real measurement could give (Check) before anything reads
// them. Whether they can be judged at all is Judgeable's to say.
package video

import (
	"fmt"
	"math"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// Status says whether the browser could measure the answer at all.
type Status string

const (
	// StatusMeasured: the face mesh ran over the answer.
	StatusMeasured Status = "measured"
	// StatusUnavailable: the browser could not run it (no WebGL, the
	// model did not load, or it could not keep up); nothing was measured.
	StatusUnavailable Status = "unavailable"
)

var statuses = []Status{StatusMeasured, StatusUnavailable}

// Direction is where the student looked instead of at the camera.
type Direction string

// Directions a look away may take; DirectionOutOfFrame is a face that left
// the frame (or turned too far to be found).
const (
	DirectionDown       Direction = "down"
	DirectionUp         Direction = "up"
	DirectionLeft       Direction = "left"
	DirectionRight      Direction = "right"
	DirectionOutOfFrame Direction = "out-of-frame"
)

var directions = []Direction{DirectionDown, DirectionUp, DirectionLeft, DirectionRight, DirectionOutOfFrame}

// Limits of a measurement: what the browser reports and the server accepts.
const (
	// MinLookAwaySeconds is the shortest look away that is reported: a
	// glance aside to think is what people do.
	MinLookAwaySeconds = 2
	// MaxLooksAway is how many looks away are reported, the longest ones.
	MaxLooksAway = 12
	// MaxFramesPerSecond bounds the frames a measurement may claim: a
	// camera gives at most this many.
	MaxFramesPerSecond = 60
	// MaxHeadMovement bounds the head's movement, in degrees per second.
	MaxHeadMovement = 360
	// slackSeconds is how far the browser's clock may run past the
	// answer's limit (the recorder stops a moment after it).
	slackSeconds = 5
)

// LookAway is one long look away from the camera.
type LookAway struct {
	AtSeconds float64   `json:"atSeconds" minimum:"0" doc:"When the look away began, in seconds from the start of the answer."`
	Seconds   float64   `json:"seconds" doc:"How long it lasted."`
	Toward    Direction `json:"toward" doc:"Where the student looked: down, up, left, right, or out of the frame (no face found)."`
}

// TransformSchema publishes the directions and the shortest look reported.
func (LookAway) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "toward", directions)
	lo := float64(MinLookAwaySeconds)
	s.Properties["seconds"].Minimum = &lo
	return s
}

// Framing is how long the face was framed badly, each way, in seconds of
// the time it was in the frame; a moment may be framed badly in more than
// one way.
type Framing struct {
	TooSmallSeconds  float64 `json:"tooSmallSeconds" minimum:"0" doc:"The face too small: the student sat too far from the camera."`
	TooLargeSeconds  float64 `json:"tooLargeSeconds" minimum:"0" doc:"The face too large: too close to the camera."`
	OffCenterSeconds float64 `json:"offCenterSeconds" minimum:"0" doc:"The face well away from the middle of the frame."`
	CutOffSeconds    float64 `json:"cutOffSeconds" minimum:"0" doc:"Part of the face outside the frame."`
}

// framingProblem is one way a face can be framed badly: its field in the
// contract, how the student is told of it, and how long it lasted.
type framingProblem struct {
	field, says string
	seconds     float64
}

func (f Framing) problems() []framingProblem {
	return []framingProblem{{"tooSmallSeconds", "too far from the camera", f.TooSmallSeconds}, {"tooLargeSeconds", "too close to the camera", f.TooLargeSeconds},
		{"offCenterSeconds", "off to one side", f.OffCenterSeconds}, {"cutOffSeconds", "partly out of the frame", f.CutOffSeconds}}
}

// Worst is the framing problem that lasted longest, and how long.
func (f Framing) Worst() (problem string, seconds float64) {
	for _, p := range f.problems() {
		if p.seconds > seconds {
			problem, seconds = p.says, p.seconds
		}
	}
	return problem, seconds
}

// Delivery is the video delivery of one answer, measured on the device.
type Delivery struct {
	Status Status `json:"status" doc:"measured, or unavailable when the browser could not run the measurement (then every figure is 0)."`
	// WatchedSeconds is how long the answer was watched: from the first
	// frame looked at (the model may still have been loading when the
	// answer began) to its end.
	WatchedSeconds float64 `json:"watchedSeconds" minimum:"0" doc:"How long the answer was watched, in seconds: from the first frame looked at to the end of the answer."`
	Frames         int     `json:"frames" minimum:"0" doc:"How many frames were looked at."`
	// FaceSeconds is the time a face was found in the frame.
	FaceSeconds float64 `json:"faceSeconds" minimum:"0" doc:"Seconds with a face found in the frame."`
	// EyeContactSeconds is the part of FaceSeconds the student looked at
	// the camera, judged from head pose and where the irises point.
	EyeContactSeconds float64 `json:"eyeContactSeconds" minimum:"0" doc:"Seconds, of those with a face, the student looked at the camera."`
	// DarkSeconds is the time the picture was too dark to find a face in.
	DarkSeconds float64 `json:"darkSeconds" minimum:"0" doc:"Seconds the picture was too dark to see a face in."`
	Framing     Framing `json:"framing"`
	// HeadMovement is how much the head turned, in degrees per second,
	// averaged over the time the face was found: steadiness.
	HeadMovement float64    `json:"headMovement" minimum:"0" doc:"How much the head turned and nodded, in degrees per second, averaged over the time a face was found."`
	LooksAway    []LookAway `json:"looksAway" doc:"The longest looks away, in the order they happened, timed from the start of the answer."`
}

// TransformSchema publishes the statuses and bounds.
func (Delivery) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "status", statuses)
	httpx.SetMaxItems(s, "looksAway", MaxLooksAway)
	hi := float64(MaxHeadMovement)
	s.Properties["headMovement"].Maximum = &hi
	return s
}

// Check reports whether d is a measurement a browser could really have
// made of an answer limited to limitSeconds: figures within the answer's
// length, parts within their wholes, looks away in order without
// overlapping. A forged object that passes is one a real answer could
// have produced, so it can score no more than that answer could.
func (d *Delivery) Check(limitSeconds float64) error {
	if d == nil {
		return nil
	}
	invalid := func(field, format string, args ...any) error {
		return apperr.Invalid("videoDelivery."+field, format, args...)
	}
	if !slices.Contains(statuses, d.Status) {
		return invalid("status", "The video delivery's status must be one of %v.", statuses)
	}
	type figure struct {
		name string
		v    float64
	}
	figures := []figure{{"watchedSeconds", d.WatchedSeconds}, {"faceSeconds", d.FaceSeconds}, {"eyeContactSeconds", d.EyeContactSeconds}, {"darkSeconds", d.DarkSeconds},
		{"headMovement", d.HeadMovement}}
	for _, p := range d.Framing.problems() {
		figures = append(figures, figure{"framing." + p.field, p.seconds})
	}
	for _, f := range figures {
		if math.IsNaN(f.v) || f.v < 0 || math.IsInf(f.v, 0) {
			return invalid(f.name, "%s must be a number of 0 or more.", f.name)
		}
	}
	if d.Status == StatusUnavailable {
		if d.Frames != 0 || d.FaceSeconds != 0 || d.EyeContactSeconds != 0 || len(d.LooksAway) > 0 {
			return invalid("status", "An unavailable measurement has no figures.")
		}
		return nil
	}
	watched := d.WatchedSeconds
	switch {
	case watched > limitSeconds+slackSeconds:
		return invalid("watchedSeconds", "The answer was watched for %.0f s, longer than its %.0f s.", watched, limitSeconds)
	case d.Frames < 0 || float64(d.Frames) > (watched+1)*MaxFramesPerSecond:
		return invalid("frames", "%d frames cannot have been looked at in %.0f s.", d.Frames, watched)
	case d.FaceSeconds > watched:
		return invalid("faceSeconds", "A face cannot be found for longer than the answer was watched.")
	case d.DarkSeconds > watched:
		return invalid("darkSeconds", "The picture cannot be dark for longer than the answer was watched.")
	case d.EyeContactSeconds > d.FaceSeconds:
		return invalid("eyeContactSeconds", "Eye contact cannot last longer than a face was found.")
	case d.HeadMovement > MaxHeadMovement:
		return invalid("headMovement", "The head cannot turn more than %d degrees per second.", MaxHeadMovement)
	case len(d.LooksAway) > MaxLooksAway:
		return invalid("looksAway", "At most %d looks away are reported.", MaxLooksAway)
	}
	for _, p := range d.Framing.problems() {
		if p.seconds > d.FaceSeconds {
			return invalid("framing."+p.field, "A face cannot be framed badly for longer than it was found.")
		}
	}
	end := 0.0
	for i, l := range d.LooksAway {
		field := fmt.Sprintf("looksAway[%d]", i)
		switch {
		case !slices.Contains(directions, l.Toward):
			return invalid(field+".toward", "A look away must be toward one of %v.", directions)
		case math.IsNaN(l.AtSeconds) || math.IsNaN(l.Seconds) || l.AtSeconds < end:
			return invalid(field+".atSeconds", "Looks away must be in order and must not overlap.")
		case l.Seconds < MinLookAwaySeconds || l.AtSeconds+l.Seconds > limitSeconds+slackSeconds:
			return invalid(field+".seconds", "A look away lasts %d s or more, within the answer.", MinLookAwaySeconds)
		}
		end = l.AtSeconds + l.Seconds
	}
	return nil
}

// Unmeasured says why a measurement cannot be judged.
type Unmeasured string

// Why a measurement cannot be judged.
const (
	// UnmeasuredUnavailable: the browser could not run the measurement.
	UnmeasuredUnavailable Unmeasured = "unavailable"
	// UnmeasuredDark: the picture was too dark for most of the answer.
	UnmeasuredDark Unmeasured = "dark"
	// UnmeasuredNoFace: no face was found for most of the answer.
	UnmeasuredNoFace Unmeasured = "no-face"
	// UnmeasuredTooFewFrames: the device looked at too few frames to say
	// anything (a very slow device, or a very short answer).
	UnmeasuredTooFewFrames Unmeasured = "too-few-frames"
)

// minFrames is the fewest frames a measurement is judged from; a device
// that manages fewer over the answer has seen too little of it.
const minFrames = 5

// Judgeable reports why d cannot be judged, "" when it can: the browser
// measured it, in enough light, with a face in the frame for at least
// half of the answer, from enough frames. A measurement that cannot be
// judged says so and judges nothing. A dark picture or a missing face is
// said first: a few frames are enough to tell those.
func (d *Delivery) Judgeable() Unmeasured {
	switch {
	case d.Status != StatusMeasured:
		return UnmeasuredUnavailable
	case d.DarkSeconds*2 > d.WatchedSeconds:
		return UnmeasuredDark
	case d.FaceSeconds*2 < d.WatchedSeconds:
		return UnmeasuredNoFace
	case d.Frames < minFrames:
		return UnmeasuredTooFewFrames
	}
	return ""
}

// Note is what the student is told when the measurement cannot be judged.
func (u Unmeasured) Note() string { return "Not measured: " + u.reason() + "." }

func (u Unmeasured) reason() string {
	switch u {
	case UnmeasuredDark:
		return "the picture was too dark to see your face for most of the answer"
	case UnmeasuredNoFace:
		return "your face was not found in the frame for most of the answer"
	case UnmeasuredTooFewFrames:
		return "your device could look at too few frames of the answer"
	}
	return "your browser could not run the measurement"
}

// Share is part of whole, 0 when whole is 0.
func Share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return min(part/whole, 1)
}
