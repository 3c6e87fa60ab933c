// Package sphinx keeps pocketsphinx decoders running as worker processes.
//
// Loading the en-us acoustic model, the 72k-word language model and the
// 134k-word dictionary takes about half a second of CPU, which a process per
// answer would pay every time. Debian's pocketsphinx_batch reads its control
// file line by line and writes results unbuffered, so with the control file
// on a pipe it becomes a long-lived decoder: write "file startframe endframe
// uttid", read one hypseg line back. This keeps the binary a plain Debian
// package (no cgo, no build dependency on libpocketsphinx-dev) while loading
// the model once per worker.
package sphinx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
)

// FrameRate is pocketsphinx's default: frame numbers are hundredths of a second.
const FrameRate = 100

// Seg is one token of a hypothesis, as pocketsphinx prints it: real words,
// alternate pronunciations such as "read(2)", and fillers such as "<sil>".
type Seg struct {
	Word       string
	Start, End int // frames, End exclusive
	// Acoustic is the token's acoustic score in the decoder's log base
	// (LogBase): its frames' log-likelihoods, each relative to the best
	// scoring state of its frame, so 0 at best and lower the worse the
	// sound fits the word.
	Acoustic int
	// Posterior is a real word's posterior probability in the decoder's
	// word lattice (0 to 1, to three places): the share of the lattice's
	// probability mass on paths that have this word here. Fillers have
	// none (0).
	Posterior float64
}

// LogBase is the base of the decoder's scores (its -logbase default).
const LogBase = 1.0001

// Filler reports whether a token is one of the decoder's silence and noise
// tokens ("<s>", "<sil>", "[NOISE]", "+um+") rather than a dictionary word:
// the model's filler dictionary spells them so.
func Filler(word string) bool {
	return strings.HasPrefix(word, "<") || strings.HasPrefix(word, "[") || strings.HasPrefix(word, "+")
}

// Hyp is the decoder's best hypothesis for one request.
type Hyp struct {
	Segs []Seg
	// Acoustic is the hypothesis's acoustic log-likelihood in the decoder's
	// own log base (larger is better). Scores of the same frames decoded
	// from differently processed audio can be compared.
	Acoustic int64
}

// Search is how thoroughly a decoder searches: the decoder processes are
// started with one search's options each, so a request picks its search by
// the process it is given.
type Search int

const (
	// Thorough is the configured search (Options.Args).
	Thorough Search = iota
	// Quick is the cheaper search (Options.QuickArgs) for a busy box.
	Quick
)

func (s Search) String() string {
	if s == Quick {
		return "quick"
	}
	return "thorough"
}

// searches is every Search, for loops.
var searches = [...]Search{Thorough, Quick}

// Priority orders the requests that wait for a decoder: a higher one is
// served first, equal ones in the order they came.
type Priority int

const (
	// Ahead is recognition ahead of need: a recording still arriving,
	// whose student is still speaking and waits for nothing yet.
	Ahead Priority = iota
	// Awaited is recognition that a student waits for: a finished answer
	// whose feedback comes when it is done.
	Awaited
	// Spare is recognition no student waits for (a visitor's try without
	// an account): it takes a decoder only when every decoder is idle, so
	// at most one runs at a time, a student's request always finds the
	// others free, and a burst of them never delays a student's feedback
	// by more than the one piece in progress.
	Spare
)

// priorities is every Priority, highest first.
var priorities = [...]Priority{Awaited, Ahead, Spare}

// Request is how a decoding is done: with which search, and how urgently.
type Request struct {
	Search   Search
	Priority Priority
	// Since is when the recording began (zero: when the request came).
	// Of the requests of one priority waiting, the oldest recording's
	// goes first: answers share one time limit, so its student is the
	// first to finish, and a busy box lets the newest ones wait.
	Since time.Time
}

// waiter is a request waiting for a slot, handed one on turn.
type waiter struct {
	since time.Time
	turn  chan *slot
}

// Options configures the workers.
type Options struct {
	Batch string // pocketsphinx_batch
	HMM   string
	LM    string
	Dict  string
	Args  []string
	// QuickArgs replace Args for the Quick search; without them every
	// request searches thoroughly.
	QuickArgs []string
	// Workers is how many requests are decoded at once (one process
	// each, of the search the request asks for).
	Workers int
	// Memory caps what one worker may allocate (RLIMIT_DATA); its input
	// is at most a few minutes of raw audio, so this is the model's size
	// with room to spare. No CPU limit: that would count a worker's whole
	// life of answers; a decode that runs long is killed by its caller's
	// deadline instead.
	Memory int64
	Logger *slog.Logger
}

// Pool hands decoding requests to at most Workers processes at once, the
// waiting ones by priority. Each of the Workers slots starts a process for
// a search when a request first asks for it there, and replaces one that
// dies or is killed after a timeout.
type Pool struct {
	opts Options
	seq  atomic.Uint64

	// queueMu guards free and queue: the slots nobody uses, and the
	// requests waiting for one, by priority (see release for the order
	// within one).
	queueMu sync.Mutex
	free    []*slot
	queue   [len(priorities)][]waiter

	decoded [len(searches)]atomic.Int64 // frames decoded by each search
	load    *load
	waits   waitCounts

	mu      sync.Mutex
	closed  bool
	running map[*worker]struct{}
}

// slot is one decoding at a time, with a process for each search that
// was asked for there (nil: not started yet).
type slot struct{ workers [len(searches)]*worker }

// ErrClosed is returned by Decode after Close.
var ErrClosed = errors.New("sphinx: pool closed")

func New(opts Options) *Pool {
	p := &Pool{opts: opts, running: map[*worker]struct{}{}, load: newLoad(opts.Workers, time.Now())}
	for range opts.Workers {
		p.free = append(p.free, &slot{})
	}
	return p
}

// acquire takes a slot for req: a free one when no request waits,
// otherwise the one handed to it when its turn comes.
func (p *Pool) acquire(ctx context.Context, req Request) (*slot, error) {
	asked := time.Now()
	p.queueMu.Lock()
	if len(p.free) > 0 && (req.Priority != Spare || len(p.free) == p.opts.Workers) {
		// A free slot means no student's request waits: release hands
		// slots to those first (spare ones wait for every slot to be free).
		sl := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		p.queueMu.Unlock()
		p.waits.observe(req.Priority, 0)
		return sl, nil
	}
	w := waiter{since: req.Since, turn: make(chan *slot, 1)}
	if w.since.IsZero() {
		w.since = time.Now()
	}
	p.queue[req.Priority] = append(p.queue[req.Priority], w)
	p.queueMu.Unlock()
	select {
	case sl := <-w.turn:
		p.waits.observe(req.Priority, time.Since(asked))
		return sl, nil
	case <-ctx.Done():
		p.queueMu.Lock()
		queue := p.queue[req.Priority]
		i := slices.IndexFunc(queue, func(o waiter) bool { return o.turn == w.turn })
		if i >= 0 {
			p.queue[req.Priority] = slices.Delete(queue, i, i+1)
		}
		p.queueMu.Unlock()
		if i < 0 {
			// Its turn came as it gave up: pass the slot on.
			p.release(<-w.turn)
		}
		return nil, fmt.Errorf("sphinx: wait for a worker: %w", ctx.Err())
	}
}

// release hands sl to the waiting request of the highest priority and,
// within it, of the oldest recording (the first to come among equals),
// or frees it.
func (p *Pool) release(sl *slot) {
	p.queueMu.Lock()
	defer p.queueMu.Unlock()
	for _, pr := range priorities {
		queue := p.queue[pr]
		if len(queue) == 0 || pr == Spare && len(p.free)+1 < p.opts.Workers {
			continue
		}
		first := 0
		for i, w := range queue {
			if w.since.Before(queue[first].since) {
				first = i
			}
		}
		w := queue[first]
		p.queue[pr] = slices.Delete(queue, first, first+1)
		w.turn <- sl
		return
	}
	p.free = append(p.free, sl)
}

// Waiting is how many students' requests are waiting for a slot: none
// while the decoders keep up. Spare requests are not counted: they wait
// by design, and must not turn students' recognition to the quick search.
func (p *Pool) Waiting() int {
	p.queueMu.Lock()
	defer p.queueMu.Unlock()
	n := 0
	for pr, queue := range p.queue {
		if Priority(pr) != Spare {
			n += len(queue)
		}
	}
	return n
}

// Load is the share of the slots in use, 0 to 1, averaged over the last
// few seconds (see loadTimeConstant). Slots in use stand for CPU: a decode
// that shares its core with other work holds its slot longer.
func (p *Pool) Load() float64 { return p.load.share(time.Now()) }

// Decoded is how much audio each search has decoded.
func (p *Pool) Decoded(s Search) time.Duration {
	return time.Duration(p.decoded[s].Load()) * time.Second / FrameRate
}

// bytesPerFrame is a frame of the raw input: 16 kHz, 16-bit samples.
const bytesPerFrame = 16000 * 2 / FrameRate

// Decode recognises frames [start, end) of the raw 16 kHz mono s16le file
// base+".raw" (end -1: to the end of the file) as req says: with its
// search (Thorough when the pool has no quick options), and when no
// request of a higher priority waits. Returned frames are relative to the
// whole file.
func (p *Pool) Decode(ctx context.Context, req Request, base string, start, end int) (Hyp, error) {
	if strings.ContainsAny(base, " \t\r\n") {
		return Hyp{}, fmt.Errorf("sphinx: path %q contains white space", base)
	}
	s := req.Search
	if p.opts.QuickArgs == nil {
		s = Thorough
	}
	sl, err := p.acquire(ctx, req)
	if err != nil {
		return Hyp{}, err
	}
	p.load.change(1, time.Now())
	defer func() {
		p.load.change(-1, time.Now())
		p.release(sl)
	}()
	// The decoder prints nothing for an input it cannot open, which would
	// leave the request waiting for its deadline; looked at once the
	// request has a worker, as a request that waited long may find its
	// input gone (a recording in progress that has since been finished).
	fi, err := os.Stat(base + ".raw")
	if err != nil {
		return Hyp{}, fmt.Errorf("sphinx: input: %w", err)
	}
	w := sl.workers[s]
	if w == nil || w.exited() {
		if w, err = p.start(s); err != nil {
			sl.workers[s] = nil
			return Hyp{}, err
		}
		sl.workers[s] = w
	}
	uttid := "u" + strconv.FormatUint(p.seq.Add(1), 10)
	hyp, err := w.decode(ctx, fmt.Sprintf("%s %d %d %s\n", base, start, end, uttid), uttid)
	if err != nil {
		// The worker's state is unknown after a failure or a timeout: replace it.
		p.stop(w)
		sl.workers[s] = nil
		return Hyp{}, err
	}
	frames := int(fi.Size()/bytesPerFrame) - start
	if end >= 0 {
		frames = end - start
	}
	p.decoded[s].Add(int64(max(frames, 0)))
	for i := range hyp.Segs {
		seg := &hyp.Segs[i]
		seg.Start += start
		seg.End += start
		// The feature window's overlap numbers a frame or two past the
		// requested end.
		if end >= 0 {
			seg.Start, seg.End = min(seg.Start, end), min(seg.End, end)
		}
	}
	return hyp, nil
}

// Close stops every worker; Decode calls in flight fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	ws := make([]*worker, 0, len(p.running))
	for w := range p.running {
		ws = append(ws, w)
	}
	p.mu.Unlock()
	for _, w := range ws {
		p.stop(w)
	}
	return nil
}

func (p *Pool) start(s Search) (*worker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	args := []string{
		"-hmm", p.opts.HMM, "-lm", p.opts.LM, "-dict", p.opts.Dict,
		"-adcin", "yes", "-cepext", ".raw",
		"-ctl", "/dev/stdin", "-hypseg", "/dev/stdout",
		// The posterior of every real word, from the lattice that the
		// best-path search (on by default) builds: one CTM line per word,
		// written after the utterance's hypseg line.
		"-ctm", "/dev/stdout",
		// With silence removal on (the default) the decoder drops the frames
		// its voice activity detector calls silent and numbers the rest
		// without them: a 5 s pause came back as 0.6 s, and a request that
		// started in a pause had every word early. Recognition was no
		// better with it on the development clips (7.74% WER either way).
		"-remove_silence", "no",
	}
	if s == Quick {
		args = append(args, p.opts.QuickArgs...)
	} else {
		args = append(args, p.opts.Args...)
	}
	w, err := startWorker(p.opts.Batch, args, rlimit.Limits{Data: p.opts.Memory}, p.opts.Logger.With("search", s.String()))
	if err != nil {
		return nil, err
	}
	p.running[w] = struct{}{}
	return w, nil
}

func (p *Pool) stop(w *worker) {
	p.mu.Lock()
	delete(p.running, w)
	p.mu.Unlock()
	w.kill()
}

type worker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	done  chan struct{}
	// killed is closed when the worker is being stopped: what it still
	// writes (the rest of a result's CTM lines) has no reader, and a
	// reader blocked on lines would keep it from being reaped.
	killed   chan struct{}
	killOnce sync.Once
	logger   *slog.Logger

	tailMu sync.Mutex
	tail   []string // last stderr lines, for error messages
}

func startWorker(bin string, args []string, limits rlimit.Limits, logger *slog.Logger) (*worker, error) {
	// The worker outlives any one request: it is stopped by kill, not a context.
	cmd, err := rlimit.Command(context.Background(), limits, bin, args...)
	if err != nil {
		return nil, fmt.Errorf("sphinx: start %s: %w", bin, err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("sphinx: stdin pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("sphinx: stdout pipe: %w", err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("sphinx: stderr pipe: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sphinx: start %s: %w", bin, err)
	}
	w := &worker{cmd: cmd, stdin: stdin, lines: make(chan string, 1), done: make(chan struct{}), killed: make(chan struct{}), logger: logger}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			select {
			case w.lines <- sc.Text():
			case <-w.killed:
			}
		}
	}()
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "ERROR") || strings.HasPrefix(line, "FATAL") || strings.HasPrefix(line, "WARN") {
				logger.Warn("sphinx: decoder says", "line", line)
			}
			w.tailMu.Lock()
			w.tail = append(w.tail, line)
			if len(w.tail) > 8 {
				w.tail = w.tail[1:]
			}
			w.tailMu.Unlock()
		}
	}()
	go func() {
		readers.Wait()
		err := cmd.Wait()
		rlimit.Account(rlimit.PurposeRecognize, cmd.ProcessState)
		logger.Debug("sphinx: worker exited", "pid", cmd.Process.Pid, "err", err)
		close(w.done)
	}()
	logger.Info("sphinx: worker started", "pid", cmd.Process.Pid)
	return w, nil
}

func (w *worker) exited() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

func (w *worker) kill() {
	// Closing stdin ends a healthy worker at its next read; Kill covers one
	// stuck in a long utterance.
	w.killOnce.Do(func() { close(w.killed) })
	w.stdin.Close()
	if err := w.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		w.logger.Warn("sphinx: kill worker", "err", err)
	}
	<-w.done
}

func (w *worker) lastWords() string {
	w.tailMu.Lock()
	defer w.tailMu.Unlock()
	return strings.Join(w.tail, " | ")
}

func (w *worker) decode(ctx context.Context, ctl, uttid string) (Hyp, error) {
	if _, err := io.WriteString(w.stdin, ctl); err != nil {
		return Hyp{}, fmt.Errorf("sphinx: send request: %w (%s)", err, w.lastWords())
	}
	line, err := w.line(ctx)
	if err != nil {
		return Hyp{}, err
	}
	hyp, err := ParseHypseg(line, uttid)
	if err != nil {
		return Hyp{}, err
	}
	for i := range hyp.Segs {
		seg := &hyp.Segs[i]
		if Filler(seg.Word) {
			continue
		}
		if line, err = w.line(ctx); err != nil {
			return Hyp{}, err
		}
		if seg.Posterior, err = parseCTM(line, uttid, seg.Word); err != nil {
			return Hyp{}, err
		}
	}
	return hyp, nil
}

// line is the decoder's next line of output.
func (w *worker) line(ctx context.Context) (string, error) {
	select {
	case line := <-w.lines:
		return line, nil
	case <-w.done:
		return "", fmt.Errorf("sphinx: decoder exited: %s", w.lastWords())
	case <-ctx.Done():
		return "", fmt.Errorf("sphinx: decode: %w", ctx.Err())
	}
}

// parseCTM reads the posterior of word (as the hypseg line spells it,
// "read(2)" for an alternate pronunciation) from one line of
// pocketsphinx's -ctm output:
//
//	uttid channel start duration word posterior
func parseCTM(line, uttid, word string) (float64, error) {
	f := strings.Fields(line)
	base, _, _ := strings.Cut(word, "(")
	if len(f) != 6 || f[0] != uttid || f[4] != base {
		return 0, fmt.Errorf("sphinx: CTM line %q does not follow %s's word %q", line, uttid, word)
	}
	p, err := strconv.ParseFloat(f[5], 64)
	if err != nil || !(p >= 0) {
		return 0, fmt.Errorf("sphinx: malformed posterior in %q", line)
	}
	// The lattice's sums are rounded: a certain word can come out 1.001.
	return min(p, 1), nil
}

// ParseHypseg reads one line of pocketsphinx's -hypseg output:
//
//	uttid S 0 T total A acoustic L lm  sf ascr lscr word ...  lastframe
//
// Each token ends where the next begins; the last ends after lastframe.
func ParseHypseg(line, uttid string) (Hyp, error) {
	f := strings.Fields(line)
	if len(f) < 10 || f[1] != "S" || f[5] != "A" || (len(f)-10)%4 != 0 {
		return Hyp{}, fmt.Errorf("sphinx: malformed result %q", line)
	}
	if f[0] != uttid {
		// batch prints the previous result again when it cannot read a file.
		return Hyp{}, fmt.Errorf("sphinx: result for %s while waiting for %s (input unreadable?)", f[0], uttid)
	}
	acoustic, err := strconv.ParseInt(f[6], 10, 64)
	if err != nil {
		return Hyp{}, fmt.Errorf("sphinx: malformed acoustic score in %q", line)
	}
	toks := f[9:]
	n := len(toks) / 4
	if n == 0 {
		return Hyp{Acoustic: acoustic}, nil
	}
	segs := make([]Seg, n)
	for i := range n {
		sf, err := strconv.Atoi(toks[4*i])
		if err != nil {
			return Hyp{}, fmt.Errorf("sphinx: malformed frame in %q", line)
		}
		ascr, err := strconv.Atoi(toks[4*i+1])
		if err != nil {
			return Hyp{}, fmt.Errorf("sphinx: malformed acoustic score in %q", line)
		}
		segs[i] = Seg{Word: toks[4*i+3], Start: sf, Acoustic: ascr}
	}
	last, err := strconv.Atoi(toks[len(toks)-1])
	if err != nil {
		return Hyp{}, fmt.Errorf("sphinx: malformed end frame in %q", line)
	}
	for i := range n - 1 {
		segs[i].End = segs[i+1].Start
	}
	segs[n-1].End = last + 1
	return Hyp{Segs: segs, Acoustic: acoustic}, nil
}
