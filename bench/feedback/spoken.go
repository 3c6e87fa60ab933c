package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/whitecoat/whitecoat/bench/internal/synth"
	"github.com/whitecoat/whitecoat/internal/feedback/rubric"
	"github.com/whitecoat/whitecoat/internal/transcribe"
)

// spokenVoices read the spoken subset: festival's female and male US
// English voices, which the local engine recognises best and worst.
var spokenVoices = []string{synth.Voice, "kal_diphone"}

// spokenSubset is every step-th answer of the second set, so that every
// category and label is represented without speaking all of them (each
// answer is about a minute of speech to synthesize and recognise).
func spokenSubset(as []answer, step int) []answer {
	var out []answer
	for i, a := range as {
		if a.set == "v2" && i%step == 0 {
			out = append(out, a)
		}
	}
	return out
}

// spoken reads the subset aloud with each voice, transcribes it with the
// local engine the server uses, scores the transcripts and reports the
// agreement beside the same answers' clean text.
func spoken(ctx context.Context, out io.Writer, subset []answer) error {
	work, err := os.MkdirTemp("", "bench-feedback-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	cfg := transcribe.DefaultConfig()
	cfg.TempDir = work
	eng, err := transcribe.New(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	defer eng.Close()

	clean, err := scoreAll(ctx, rubric.New(), subset)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "voice\tanswers\tspearman\tclean text\tmean |difference|\tred flags raised\n")
	for _, voice := range spokenVoices {
		heard := make([]answer, len(subset))
		for i, a := range subset {
			text, err := speakAndTranscribe(ctx, eng, work, voice, a)
			if err != nil {
				return fmt.Errorf("bench: %s with %s: %w", a.id, voice, err)
			}
			heard[i] = a
			heard[i].input.Transcript = text
		}
		ss, err := scoreAll(ctx, rubric.New(), heard)
		if err != nil {
			return err
		}
		var diff float64
		flagged, flags := 0, 0
		for i := range ss {
			diff += abs(float64(ss[i].fb.OverallScore - clean[i].fb.OverallScore))
			if ss[i].category == catRedFlag {
				flags++
				if len(ss[i].fb.RedFlags) > 0 {
					flagged++
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.1f\t%d/%d\n", voice, len(ss), summarize(ss).spearman, summarize(clean).spearman,
			diff/float64(len(ss)), flagged, flags)
	}
	return tw.Flush()
}

func speakAndTranscribe(ctx context.Context, eng transcribe.Engine, work, voice string, a answer) (string, error) {
	base := filepath.Join(work, fmt.Sprintf("%x", a.id))
	if err := os.WriteFile(base+".txt", []byte(a.input.Transcript), 0o600); err != nil {
		return "", err
	}
	if err := synth.Speak(ctx, voice, base+".txt", base+".wav"); err != nil {
		return "", err
	}
	if err := synth.Encode(ctx, base+".wav", base+".webm", "webm"); err != nil {
		return "", err
	}
	res, err := eng.Transcribe(ctx, transcribe.Audio{Path: base + ".webm", MIMEType: "audio/webm"})
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
