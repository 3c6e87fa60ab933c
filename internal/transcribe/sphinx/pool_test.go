package sphinx

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestParseHypseg(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		want    Hyp
		wantErr bool
	}{
		{
			name: "words and fillers",
			line: "u7 S 0 T -100 A -90 L -10 0 -5 0 <s> 17 -6 -1 i 26 -7 -2 first(2) 66 -8 -3 <sil> 70 -9 -4 </s> 80",
			want: Hyp{Segs: []Seg{{"<s>", 0, 17}, {"i", 17, 26}, {"first(2)", 26, 66}, {"<sil>", 66, 70}, {"</s>", 70, 81}}, Acoustic: -90},
		},
		{name: "no words", line: "u7 S 0 T 0 A -3 L 0 12", want: Hyp{Acoustic: -3}},
		{name: "bad score", line: "u7 S 0 T 0 A x L 0 0 -5 0 hello 10", wantErr: true},
		{name: "stale result", line: "u6 S 0 T 0 A 0 L 0 0 -5 0 hello 10", wantErr: true},
		{name: "garbage", line: "INFO: something", wantErr: true},
		{name: "bad frame", line: "u7 S 0 T 0 A 0 L 0 x -5 0 hello 10", wantErr: true},
		{name: "missing end", line: "u7 S 0 T 0 A 0 L 0 0 -5 0 hello", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseHypseg(tc.line, "u7")
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPoolSurvivesBrokenRequests runs the real decoder: a missing input file
// and a cancelled request must not poison the pool.
func TestPoolSurvivesBrokenRequests(t *testing.T) {
	p := realPool(t, 256<<20)
	defer p.Close()
	dir := t.TempDir()
	base := quietInput(t, dir)
	ctx, cancelAll := context.WithTimeout(context.Background(), time.Minute)
	defer cancelAll()
	if _, err := p.Decode(ctx, base, 0, -1); err != nil {
		t.Fatalf("first decode: %v", err)
	}
	if _, err := p.Decode(ctx, filepath.Join(dir, "missing"), 0, -1); err == nil {
		t.Error("decoding a missing file succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Decode(cancelled, base, 0, -1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled decode: %v", err)
	}
	if _, err := p.Decode(ctx, "/has space/x", 0, -1); err == nil {
		t.Error("a path with a space was accepted")
	}
	hyp, err := p.Decode(ctx, base, 10, 90)
	if err != nil {
		t.Fatalf("decode after failures: %v", err)
	}
	for _, s := range hyp.Segs {
		if s.Start < 10 || s.End > 90 {
			t.Errorf("segment %+v outside the requested frames 10-90", s)
		}
	}
	p.Close()
	if _, err := p.Decode(ctx, base, 0, -1); !errors.Is(err, ErrClosed) {
		t.Errorf("decode after Close: %v", err)
	}
}

// A worker runs under its memory limit: one too small for the model
// cannot decode.
func TestPoolWorkersRunUnderTheMemoryLimit(t *testing.T) {
	p := realPool(t, 48<<20)
	defer p.Close()
	if _, err := p.Decode(t.Context(), quietInput(t, t.TempDir()), 0, -1); err == nil {
		t.Fatal("a worker decoded within 48 MiB, which cannot hold the model")
	}
}

// realPool is one worker with Debian's en-us model under memory bytes.
func realPool(t *testing.T, memory int64) *Pool {
	t.Helper()
	const model = "/usr/share/pocketsphinx/model/en-us"
	for _, tool := range []string{"pocketsphinx_batch", "prlimit"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required in CI", tool)
			}
			t.Skipf("SKIPPING: %s not installed (apt-get install pocketsphinx pocketsphinx-en-us util-linux)", tool)
		}
	}
	return New(Options{
		Batch: "pocketsphinx_batch", HMM: model + "/en-us", LM: model + "/en-us.lm.bin",
		Dict: model + "/cmudict-en-us.dict", Workers: 1, Memory: memory, Logger: slog.New(slog.DiscardHandler),
	})
}

// quietInput writes a second of near-silence to decode and returns its base path.
func quietInput(t *testing.T, dir string) string {
	t.Helper()
	base := filepath.Join(dir, "quiet")
	if err := os.WriteFile(base+".raw", make([]byte, 32000), 0o600); err != nil {
		t.Fatal(err)
	}
	return base
}
