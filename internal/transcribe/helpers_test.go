package transcribe

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// clipDir caches synthesized speech across the package's tests: festival
// takes a couple of seconds per clip.
var clipDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "transcribe-test-clips-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	clipDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireTools skips a test whose external programs are missing, loudly,
// except in CI (CI=true), where the Makefile installs them and a skip would
// hide a broken setup.
func requireTools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required in CI but missing: %v", n, err)
			}
			t.Skipf("SKIPPING: %s not installed (apt-get install ffmpeg pocketsphinx pocketsphinx-en-us festival festvox-us-slt-hts festvox-kallpc16k sox)", n)
		}
	}
}

func requireSpeechStack(t testing.TB) {
	t.Helper()
	requireTools(t, "ffmpeg", "pocketsphinx_batch", "text2wave")
	if _, err := os.Stat(DefaultConfig().Local.LM); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pocketsphinx-en-us is required in CI: %v", err)
		}
		t.Skipf("SKIPPING: pocketsphinx-en-us model missing: %v", err)
	}
}

var synthMu sync.Mutex

// Festival voices the tests speak with: the clear female voice, and
// a male one (festvox-kallpc16k) for what must hold for deeper voices too.
const (
	femaleVoice = "cmu_us_slt_arctic_hts"
	maleVoice   = "kal_diphone"
)

// synth speaks text with the female voice and returns a WAV path.
func synth(t testing.TB, text string) string {
	t.Helper()
	return synthAs(t, femaleVoice, text)
}

// synthAs speaks text with a festival voice and returns a WAV path.
func synthAs(t testing.TB, voice, text string) string {
	t.Helper()
	synthMu.Lock()
	defer synthMu.Unlock()
	sum := sha256.Sum256([]byte(voice + "\x00" + text))
	wav := filepath.Join(clipDir, hex.EncodeToString(sum[:8])+".wav")
	if _, err := os.Stat(wav); err == nil {
		return wav
	}
	txt := strings.TrimSuffix(wav, ".wav") + ".txt"
	if err := os.WriteFile(txt, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	// An unknown voice is an "unbound variable" to festival, which still exits 0
	// without writing the WAV.
	out, err := exec.Command("text2wave", "-eval", "(voice_"+voice+")", txt, "-o", wav).CombinedOutput()
	if _, statErr := os.Stat(wav); err != nil || statErr != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("SKIPPING: festival voice %s not installed (apt-get install festvox-kallpc16k): %v %s", voice, err, out)
		}
		t.Fatalf("festival voice %s: %v %s", voice, err, out)
	}
	return wav
}

// encode converts a WAV into what a browser would upload.
func encode(t testing.TB, wav, kind string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "answer."+map[string]string{
		"webm": "webm", "mp4": "mp4", "fragmented-mp4": "mp4", "video-webm": "webm", "video-mp4": "mp4",
	}[kind])
	args := []string{"-nostdin", "-loglevel", "error", "-y"}
	switch kind {
	case "webm":
		args = append(args, "-i", wav, "-c:a", "libopus", "-b:a", "32k", out)
	case "mp4":
		args = append(args, "-i", wav, "-c:a", "aac", "-b:a", "64k", out)
	case "fragmented-mp4":
		// What Safari's MediaRecorder writes when asked for timeslices.
		args = append(args, "-i", wav, "-c:a", "aac", "-b:a", "64k",
			"-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000", out)
	case "video-webm":
		args = append(args, "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-i", wav,
			"-shortest", "-c:v", "libvpx", "-b:v", "100k", "-c:a", "libopus", out)
	case "video-mp4":
		args = append(args, "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-i", wav,
			"-shortest", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", out)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	run(t, "ffmpeg", args...)
	return out
}

func run(t testing.TB, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// wordErrorRate is the word-level edit distance over the reference length.
func wordErrorRate(ref, hyp string) float64 {
	errs, words := CountWordErrors(ref, hyp)
	return float64(errs) / float64(max(words, 1))
}
