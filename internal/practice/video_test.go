package practice_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/practice/practicetest"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/store/storetest"
	"github.com/whitecoat/whitecoat/internal/video"
)

// Issue 42 item 2: a video answer's finish call carries what the browser
// measured on the device; the server checks it, keeps it with the answer
// and scores the answer with it.

var seen = video.Delivery{Status: video.StatusMeasured, WatchedSeconds: 8, Frames: 24, FaceSeconds: 8, EyeContactSeconds: 3, HeadMovement: 2,
	LooksAway: []video.LookAway{{AtSeconds: 2, Seconds: 5, Toward: video.DirectionDown}}}

// sendPieces sends the recording to question i of s in one piece: the
// audio a video answer is recorded with beside its video, which stays on
// the device.
func sendPieces(t *testing.T, f *practicetest.Fixture, u auth.User, s practice.Session, i int) int64 {
	t.Helper()
	rec := practicetest.Recording(t)
	if _, err := f.Practice.AppendAudio(context.Background(), u, s.ID, s.Items[i].ID, 0, "audio/webm;codecs=opus", rec); err != nil {
		t.Fatal(err)
	}
	return int64(len(rec))
}

func TestVideoDeliveryTravelsWithTheAnswer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ctx := context.Background()
		ana := f.User(t, "ana@example.com")
		s, err := f.Practice.Create(ctx, ana(), practice.CreateInput{Profession: "dental", Mode: "video", InterviewType: "random", QuestionCount: 2})
		if err != nil {
			t.Fatal(err)
		}

		// A forged measurement is refused, and the recording waits for a good one.
		size := sendPieces(t, f, ana(), s, 0)
		forged := seen
		forged.EyeContactSeconds = 9
		_, err = f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, size, practice.Observed{Seen: &forged})
		practicetest.WantKind(t, err, apperr.KindInvalid, "Eye contact cannot last longer")
		measured := seen
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[0].ID, size, practice.Observed{Seen: &measured}); err != nil {
			t.Fatal(err)
		}
		// The second answer was recorded with the measurement turned off.
		size = sendPieces(t, f, ana(), s, 1)
		if _, err := f.Practice.FinishAudio(ctx, ana(), s.ID, s.Items[1].ID, size, practice.Observed{}); err != nil {
			t.Fatal(err)
		}

		got := f.WaitProcessed(t, ana(), s.ID)
		if !reflect.DeepEqual(got.Items[0].VideoDelivery, &seen) {
			t.Errorf("kept %+v, want %+v", got.Items[0].VideoDelivery, seen)
		}
		if got.Items[0].Feedback == nil || !slices.ContainsFunc(got.Items[0].Feedback.Evidence, func(e feedback.Evidence) bool { return e.Criterion == "eye contact" && !e.Met }) {
			t.Errorf("the watched answer's feedback does not judge its eye contact: %+v", got.Items[0].Feedback)
		}
		if got.Items[1].VideoDelivery != nil || got.Items[1].Feedback == nil ||
			slices.ContainsFunc(got.Items[1].Feedback.Evidence, func(e feedback.Evidence) bool { return e.Criterion == "eye contact" }) {
			t.Errorf("the unwatched answer: %+v, %+v", got.Items[1].VideoDelivery, got.Items[1].Feedback)
		}
	})
}

func TestAudioSessionHasNoVideoToMeasure(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := practicetest.New(t, db, nil)
		ana := f.User(t, "ana@example.com")
		s := f.Start(t, ana(), 1)
		size := sendPieces(t, f, ana(), s, 0)
		measured := seen
		_, err := f.Practice.FinishAudio(context.Background(), ana(), s.ID, s.Items[0].ID, size, practice.Observed{Seen: &measured})
		practicetest.WantKind(t, err, apperr.KindInvalid, "audio only")
	})
}
