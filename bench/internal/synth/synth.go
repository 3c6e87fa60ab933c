// Package synth makes benchmark speech: festival or flite reads a text aloud
// and ffmpeg encodes it the way browsers upload answers.
package synth

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Voice is the festival voice the benchmarks speak with, as the issue sets
// it: a clear female US English voice (Debian's festvox-us-slt-hts).
const Voice = "cmu_us_slt_arctic_hts"

// Voices are the English voices Debian ships for festival and flite, the
// benchmark's own first. A festival voice is named as festival names it;
// a flite voice as "flite:" and the name flite -voice takes.
var Voices = []struct{ Name, Package, About string }{
	{Voice, "festvox-us-slt-hts", "festival, US female (HTS)"},
	{"kal_diphone", "festvox-kallpc16k", "festival, US male (diphone)"},
	{"ked_diphone", "festvox-kdlpc16k", "festival, US male (diphone)"},
	{"flite:awb", "flite", "flite, Scottish male"},
	{"flite:rms", "flite", "flite, US male"},
	{"flite:slt", "flite", "flite, US female"},
	{"flite:kal", "flite", "flite, US male (8 kHz diphone)"},
}

// Speak writes text file in as a WAV spoken by voice: a festival voice,
// e.g. Voice or "kal_diphone" (festvox-kallpc16k, a male US English voice),
// or a flite one, e.g. "flite:awb".
func Speak(ctx context.Context, voice, in, wav string) error {
	if name, ok := strings.CutPrefix(voice, "flite:"); ok {
		return Run(ctx, "flite", "-voice", name, "-f", in, "-o", wav)
	}
	return Run(ctx, "text2wave", "-eval", "(voice_"+voice+")", in, "-o", wav)
}

// Encode converts a WAV to what a browser uploads: WebM/Opus (Chrome,
// Firefox) for format "webm", MP4/AAC (Safari) for "mp4".
func Encode(ctx context.Context, wav, out, format string) error {
	codec := []string{"-c:a", "libopus", "-b:a", "48k"}
	if format == "mp4" {
		codec = []string{"-c:a", "aac", "-b:a", "96k"}
	}
	args := append([]string{"-nostdin", "-loglevel", "error", "-y", "-i", wav, "-ac", "1", "-ar", "48000"}, codec...)
	return Run(ctx, "ffmpeg", append(args, out)...)
}

// Duration is how long a sound file plays, as sox reads it from the header.
func Duration(ctx context.Context, path string) (time.Duration, error) {
	out, err := exec.CommandContext(ctx, "soxi", "-D", path).Output()
	if err != nil {
		return 0, fmt.Errorf("soxi %s: %w", path, err)
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		return 0, fmt.Errorf("soxi %s: %w", path, err)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// Run runs a command and reports its output when it fails.
func Run(ctx context.Context, name string, args ...string) error {
	if out, err := exec.CommandContext(ctx, name, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, out)
	}
	return nil
}
