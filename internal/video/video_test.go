package video_test

import (
	"errors"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/video"
)

// watched is a 60-second answer watched at 3 frames a second, the face in
// the frame for 57 s, at the camera for 45 s of them, with one look down.
func watched() video.Delivery {
	return video.Delivery{Status: video.StatusMeasured, WatchedSeconds: 60, Frames: 180, FaceSeconds: 57, EyeContactSeconds: 45,
		Framing: video.Framing{OffCenterSeconds: 6}, HeadMovement: 4,
		LooksAway: []video.LookAway{{AtSeconds: 12, Seconds: 5, Toward: video.DirectionDown}, {AtSeconds: 30, Seconds: 3, Toward: video.DirectionOutOfFrame}}}
}

func TestCheckAcceptsWhatABrowserCouldMeasure(t *testing.T) {
	for name, d := range map[string]video.Delivery{
		"measured":        watched(),
		"unavailable":     {Status: video.StatusUnavailable, WatchedSeconds: 42},
		"no look away":    func() video.Delivery { d := watched(); d.LooksAway = nil; return d }(),
		"limit and slack": func() video.Delivery { d := watched(); d.WatchedSeconds = 182; return d }(),
	} {
		if err := d.Check(180); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	var none *video.Delivery
	if err := none.Check(180); err != nil {
		t.Errorf("no measurement: %v", err)
	}
}

// A forged object is refused with the field it got wrong: nothing it says
// can be more than a real measurement of the answer could say.
func TestCheckRefusesWhatNoMeasurementCouldGive(t *testing.T) {
	for _, c := range []struct {
		field  string
		forged func(*video.Delivery)
	}{
		{"status", func(d *video.Delivery) { d.Status = "perfect" }},
		{"watchedSeconds", func(d *video.Delivery) { d.WatchedSeconds = 600 }},
		{"watchedSeconds", func(d *video.Delivery) { d.WatchedSeconds = -1 }},
		{"frames", func(d *video.Delivery) { d.Frames = 1_000_000 }},
		{"faceSeconds", func(d *video.Delivery) { d.FaceSeconds = 61 }},
		{"eyeContactSeconds", func(d *video.Delivery) { d.EyeContactSeconds = 58 }},
		{"darkSeconds", func(d *video.Delivery) { d.DarkSeconds = 90 }},
		{"headMovement", func(d *video.Delivery) { d.HeadMovement = 1e9 }},
		{"framing.cutOffSeconds", func(d *video.Delivery) { d.Framing.CutOffSeconds = 58 }},
		{"framing.tooSmallSeconds", func(d *video.Delivery) { d.Framing.TooSmallSeconds = -3 }},
		{"looksAway[1].atSeconds", func(d *video.Delivery) { d.LooksAway[1].AtSeconds = 14 }}, // overlaps the first
		{"looksAway[0].seconds", func(d *video.Delivery) { d.LooksAway[0].Seconds = 1 }},
		{"looksAway[1].seconds", func(d *video.Delivery) { d.LooksAway[1].Seconds = 160 }}, // past the answer's limit
		{"looksAway[0].toward", func(d *video.Delivery) { d.LooksAway[0].Toward = "inward" }},
		{"looksAway", func(d *video.Delivery) {
			d.LooksAway = nil
			for i := range video.MaxLooksAway + 1 {
				d.LooksAway = append(d.LooksAway, video.LookAway{AtSeconds: float64(i * 4), Seconds: 2, Toward: video.DirectionLeft})
			}
		}},
	} {
		d := watched()
		c.forged(&d)
		err := d.Check(180)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid || ae.Field != "videoDelivery."+c.field {
			t.Errorf("forged %s: got %v, want invalid videoDelivery.%s", c.field, err, c.field)
		}
	}
	unavailable := video.Delivery{Status: video.StatusUnavailable, WatchedSeconds: 60, EyeContactSeconds: 60}
	if err := unavailable.Check(180); err == nil {
		t.Error("an unavailable measurement with figures was accepted")
	}
}

func TestJudgeableOnlyWhenTheFaceWasSeenInEnoughLight(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*video.Delivery)
		want video.Unmeasured
	}{
		{"measured", func(*video.Delivery) {}, ""},
		{"browser could not", func(d *video.Delivery) { *d = video.Delivery{Status: video.StatusUnavailable, WatchedSeconds: 60} }, video.UnmeasuredUnavailable},
		{"dark room", func(d *video.Delivery) { d.DarkSeconds, d.FaceSeconds, d.EyeContactSeconds = 40, 20, 10 }, video.UnmeasuredDark},
		{"no face most of the time", func(d *video.Delivery) { d.FaceSeconds, d.EyeContactSeconds = 29, 20 }, video.UnmeasuredNoFace},
		{"face half the time", func(d *video.Delivery) { d.FaceSeconds, d.EyeContactSeconds = 30, 20 }, ""},
		{"too few frames", func(d *video.Delivery) { d.Frames = 4 }, video.UnmeasuredTooFewFrames},
	} {
		d := watched()
		c.edit(&d)
		if got := d.Judgeable(); got != c.want {
			t.Errorf("%s: Judgeable() = %q, want %q", c.name, got, c.want)
		}
	}
}
