package sphinx

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
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
			want: Hyp{Segs: []Seg{{Word: "<s>", End: 17, Acoustic: -5}, {Word: "i", Start: 17, End: 26, Acoustic: -6}, {Word: "first(2)", Start: 26, End: 66, Acoustic: -7}, {Word: "<sil>", Start: 66, End: 70, Acoustic: -8}, {Word: "</s>", Start: 70, End: 81, Acoustic: -9}}, Acoustic: -90},
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
			got, err := ParseHypseg(tc.line, "u7")
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
	if _, err := p.Decode(ctx, Request{Search: Thorough}, base, 0, -1); err != nil {
		t.Fatalf("first decode: %v", err)
	}
	if _, err := p.Decode(ctx, Request{Search: Thorough}, filepath.Join(dir, "missing"), 0, -1); err == nil {
		t.Error("decoding a missing file succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Decode(cancelled, Request{Search: Thorough}, base, 0, -1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled decode: %v", err)
	}
	if _, err := p.Decode(ctx, Request{Search: Thorough}, "/has space/x", 0, -1); err == nil {
		t.Error("a path with a space was accepted")
	}
	hyp, err := p.Decode(ctx, Request{Search: Thorough}, base, 10, 90)
	if err != nil {
		t.Fatalf("decode after failures: %v", err)
	}
	for _, s := range hyp.Segs {
		if s.Start < 10 || s.End > 90 {
			t.Errorf("segment %+v outside the requested frames 10-90", s)
		}
	}
	p.Close()
	if _, err := p.Decode(ctx, Request{Search: Thorough}, base, 0, -1); !errors.Is(err, ErrClosed) {
		t.Errorf("decode after Close: %v", err)
	}
}

// A worker runs under its memory limit: one too small for the model
// cannot decode.
func TestPoolWorkersRunUnderTheMemoryLimit(t *testing.T) {
	p := realPool(t, 48<<20)
	defer p.Close()
	if _, err := p.Decode(t.Context(), Request{Search: Thorough}, quietInput(t, t.TempDir()), 0, -1); err == nil {
		t.Fatal("a worker decoded within 48 MiB, which cannot hold the model")
	}
}

// Each search runs in processes of its own, started with its options: in
// one slot, a quick search whose options the decoder refuses fails while
// the thorough one still decodes, and only what was decoded is counted,
// by search.
func TestPoolRunsEachSearchWithItsOwnOptions(t *testing.T) {
	p := New(realOptions(t, 256<<20, []string{"-no_such_option", "1"}))
	defer p.Close()
	base := quietInput(t, t.TempDir())
	if _, err := p.Decode(t.Context(), Request{Search: Thorough}, base, 0, -1); err != nil {
		t.Fatalf("thorough decode: %v", err)
	}
	if _, err := p.Decode(t.Context(), Request{Search: Quick}, base, 0, 50); err == nil {
		t.Fatal("the quick search decoded with options the decoder refuses: it did not run with QuickArgs")
	}
	if _, err := p.Decode(t.Context(), Request{Search: Thorough}, base, 20, 70); err != nil {
		t.Fatalf("thorough decode after the quick one failed: %v", err)
	}
	// quietInput is one second: 100 frames, then 50.
	if got, want := p.Decoded(Thorough), 1500*time.Millisecond; got != want {
		t.Errorf("thorough search decoded %v, want %v", got, want)
	}
	if got := p.Decoded(Quick); got != 0 {
		t.Errorf("the failed quick search counted %v", got)
	}

	// Without quick options every request searches thoroughly.
	thoroughOnly := New(realOptions(t, 256<<20, nil))
	defer thoroughOnly.Close()
	if _, err := thoroughOnly.Decode(t.Context(), Request{Search: Quick}, base, 0, -1); err != nil {
		t.Fatal(err)
	}
	if thoroughOnly.Decoded(Quick) != 0 || thoroughOnly.Decoded(Thorough) != time.Second {
		t.Errorf("without QuickArgs: quick %v, thorough %v", thoroughOnly.Decoded(Quick), thoroughOnly.Decoded(Thorough))
	}
}

// A request that finds every worker busy is counted as waiting until it
// gets one: the local engine's sign that the box is short of CPU.
func TestPoolCountsRequestsWaitingForAWorker(t *testing.T) {
	p := New(realOptions(t, 256<<20, nil))
	defer p.Close()
	ctx := t.Context()
	letGo, held := holdTheWorker(t, p)
	if n := p.Waiting(); n != 0 {
		t.Fatalf("%d requests waiting with only the held one made", n)
	}
	quiet := quietInput(t, t.TempDir())
	errs := make(chan error, 1)
	go func() {
		_, err := p.Decode(ctx, Request{Search: Thorough}, quiet, 0, -1)
		errs <- err
	}()
	waitFor(t, "the second request to wait", func() bool { return p.Waiting() == 1 })
	// The worker is held a known while longer, which the second request waits.
	const hold = 50 * time.Millisecond
	time.Sleep(hold)
	if err := letGo(); err != nil {
		t.Fatal(err)
	}
	for _, ended := range []<-chan error{held, errs} {
		if err := <-ended; err != nil {
			t.Fatal(err)
		}
	}
	if n := p.Waiting(); n != 0 {
		t.Errorf("%d requests still counted as waiting after both were decoded", n)
	}
	// Both waits are counted (issue 43): the held request found the worker
	// free, the second waited at least the hold.
	w := p.Waited()[Ahead.String()]
	if w.Count != 2 || w.Buckets[0] != 1 || w.Sum < hold.Seconds() || w.Buckets[len(WaitBounds)-1] != 2 {
		t.Errorf("waits counted %+v, want 2, one within %g s, %v s or more in all", w, WaitBounds[0], hold.Seconds())
	}
	if other := p.Waited()[Awaited.String()]; other.Count != 0 {
		t.Errorf("an awaited request's wait counted: %+v", other)
	}
}

// A student who has finished an answer waits for its feedback; one still
// speaking does not. On a busy box, a request for a finished answer is
// served before the requests of recordings in progress that came before
// it (it used to wait behind all of them, in the order they came); among
// those, an older recording's goes first, as its student will finish
// first; and a request that gives up waiting leaves the queue.
func TestPoolServesAwaitedRequestsFirst(t *testing.T) {
	p := New(realOptions(t, 256<<20, nil))
	defer p.Close()
	ctx := t.Context()
	letGo, held := holdTheWorker(t, p)
	quiet := quietInput(t, t.TempDir())
	served := make(chan string, 5)
	request := func(ctx context.Context, name string, pr Priority, since time.Time) {
		waiting := p.Waiting()
		go func() {
			if _, err := p.Decode(ctx, Request{Search: Thorough, Priority: pr, Since: since}, quiet, 0, -1); err != nil {
				name += " failed: " + err.Error()
			}
			served <- name
		}()
		waitFor(t, name+" to wait", func() bool { return p.Waiting() == waiting+1 })
	}
	request(ctx, "first step", Ahead, time.Time{})
	givesUp, giveUp := context.WithCancel(ctx)
	request(givesUp, "abandoned step", Ahead, time.Time{})
	request(ctx, "second step", Ahead, time.Time{})
	request(ctx, "older recording's step", Ahead, time.Now().Add(-time.Minute))
	request(ctx, "finished answer", Awaited, time.Time{})
	giveUp()
	if got := <-served; !strings.Contains(got, "abandoned step failed") {
		t.Fatalf("first to end: %q, want the abandoned request", got)
	}
	if err := letGo(); err != nil {
		t.Fatal(err)
	}
	var order []string
	for range 4 {
		order = append(order, <-served)
	}
	if want := []string{"finished answer", "older recording's step", "first step", "second step"}; !slices.Equal(order, want) {
		t.Errorf("served %q, want %q", order, want)
	}
	if err := <-held; err != nil {
		t.Errorf("the held request: %v", err)
	}
}

// A visitor's try is recognised only on idle decoders: while one of two
// decoders is busy it waits though the other is free, a student's request
// takes that one at once, and the try is not counted as a student waiting
// (which would turn students' recognition to the quick search). It runs
// once every decoder is free.
func TestPoolServesSpareRequestsOnlyOnIdleDecoders(t *testing.T) {
	opts := realOptions(t, 256<<20, nil)
	opts.Workers = 2
	p := New(opts)
	defer p.Close()
	ctx := t.Context()
	letGo, held := holdTheWorker(t, p)
	quiet := quietInput(t, t.TempDir())
	spareQueued := func() int {
		p.queueMu.Lock()
		defer p.queueMu.Unlock()
		return len(p.queue[Spare])
	}
	spare := make(chan error, 1)
	go func() {
		_, err := p.Decode(ctx, Request{Search: Thorough, Priority: Spare}, quiet, 0, -1)
		spare <- err
	}()
	waitFor(t, "the try to wait", func() bool { return spareQueued() == 1 })
	if n := p.Waiting(); n != 0 {
		t.Errorf("a waiting try counted as %d students waiting", n)
	}
	if _, err := p.Decode(ctx, Request{Search: Thorough, Priority: Awaited}, quiet, 0, -1); err != nil {
		t.Fatalf("the student's request beside the waiting try: %v", err)
	}
	if spareQueued() != 1 {
		t.Fatal("the try took the decoder the student's request left while the other was busy")
	}
	if err := letGo(); err != nil {
		t.Fatal(err)
	}
	for _, ended := range []<-chan error{held, spare} {
		if err := <-ended; err != nil {
			t.Fatal(err)
		}
	}
}

// holdTheWorker makes one of the pool's workers busy until letGo: the decoder
// reads a named pipe until its writer closes it. held says how the
// holding request ended.
func holdTheWorker(t *testing.T, p *Pool) (letGo func() error, held <-chan error) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	base := filepath.Join(dir, "held")
	if err := syscall.Mkfifo(base+".raw", 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	free := func() int {
		p.queueMu.Lock()
		defer p.queueMu.Unlock()
		return len(p.free)
	}
	before := free()
	go func() {
		_, err := p.Decode(ctx, Request{Search: Thorough}, base, 0, -1)
		done <- err
	}()
	waitFor(t, "the worker to be taken", func() bool { return free() == before-1 })
	// A second of silence, then end of file.
	return func() error { return os.WriteFile(base+".raw", make([]byte, 32000), 0o600) }, done
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// realPool is one worker with Debian's en-us model under memory bytes.
func realPool(t *testing.T, memory int64) *Pool {
	t.Helper()
	return New(realOptions(t, memory, nil))
}

// realOptions are one worker with Debian's en-us model under memory bytes,
// searching quickly with quickArgs.
func realOptions(t *testing.T, memory int64, quickArgs []string) Options {
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
	return Options{
		Batch: "pocketsphinx_batch", HMM: model + "/en-us", LM: model + "/en-us.lm.bin",
		Dict: model + "/cmudict-en-us.dict", QuickArgs: quickArgs, Workers: 1, Memory: memory, Logger: slog.New(slog.DiscardHandler),
	}
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

func TestParseCTM(t *testing.T) {
	for _, tc := range []struct {
		line, word string
		want       float64
		wantErr    bool
	}{
		{"u7 1 0.21 0.11 read 0.978", "read(2)", 0.978, false},
		{"u7 1 0.21 0.11 first 0.004", "first", 0.004, false},
		{"u6 1 0.21 0.11 first 0.5", "first", 0, true},                               // another utterance's
		{"u7 1 0.21 0.11 second 0.5", "first", 0, true},                              // another word
		{"u7 S 0 T -100 A -90 L -10 0 -5 0 <s> 17 -6 -1 first 26", "first", 0, true}, // the next hypseg
		{"u7 1 0.21 0.11 first 1.001", "first", 1, false},                            // rounded sums
		{"u7 1 0.21 0.11 first -0.5", "first", 0, true},
		{"u7 1 0.21 0.11 first NaN", "first", 0, true},
	} {
		got, err := parseCTM(tc.line, "u7", tc.word)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("parseCTM(%q, %q) = %v, %v; want %v (error: %v)", tc.line, tc.word, got, err, tc.want, tc.wantErr)
		}
	}
}

// A worker whose output the pool stops reading part way (a result it
// cannot make sense of, or a request given up on while CTM lines are
// still coming) is replaced, not waited for: its stdout reader used to
// block on the next line for ever, so stopping the worker never returned.
func TestPoolReplacesAWorkerWithUnreadOutput(t *testing.T) {
	opts := realOptions(t, 256<<20, nil)
	// A decoder that answers every request with one word and five CTM
	// lines for it: four more than a one-word result has.
	opts.Batch = filepath.Join(t.TempDir(), "chatty-batch")
	script := "#!/bin/sh\nwhile read -r file start end id; do\n" +
		"  echo \"$id S 0 T 0 A 0 L 0 0 -5 0 hello 10\"\n" +
		"  for i in 1 2 3 4 5; do echo \"$id 1 0.00 0.10 hello 0.500\"; done\ndone\n"
	if err := os.WriteFile(opts.Batch, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	p := New(opts)
	defer p.Close()
	base := quietInput(t, t.TempDir())
	hyp, err := p.Decode(t.Context(), Request{Search: Thorough}, base, 0, -1)
	if err != nil || len(hyp.Segs) != 1 || hyp.Segs[0].Posterior != 0.5 {
		t.Fatalf("first decode: %+v, %v", hyp, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	// The leftover CTM lines come where the next result should: an error,
	// and the worker is stopped.
	if _, err := p.Decode(ctx, Request{Search: Thorough}, base, 0, -1); err == nil || ctx.Err() != nil {
		t.Fatalf("second decode: %v (context: %v); want a malformed result, at once", err, ctx.Err())
	}
	if _, err := p.Decode(ctx, Request{Search: Thorough}, base, 0, -1); err != nil {
		t.Fatalf("the replaced worker: %v", err)
	}
}
