package practice

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/store"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/video"
)

// An answer may arrive in pieces while the student speaks: the browser
// sends what its recorder has every second, the server appends it to a
// temporary file and, every AdvanceEvery, lets the speech engine recognise
// what has arrived. When the student stops, Finish queues the answer like a
// whole upload, and transcription only has the last few seconds left to do.
// A client that loses track (a piece refused, the page reloaded) uploads the
// whole recording instead; the pieces are then forgotten.

// MaxPieceBytes caps one piece: a second of recording is a few kilobytes of
// audio or a few hundred of video; a client catching up after a network
// drop may send several seconds at once.
const MaxPieceBytes = 4 << 20

// MaxBytesInFlight caps the bytes of one user's recordings still arriving
// in pieces: room for one recording at the size limit being replaced by
// the next, not for a disk filled by recordings that are never finished.
const MaxBytesInFlight = 2 * MaxUploadBytes

// AdvanceArgs recognises what has arrived of an answer still being recorded.
type AdvanceArgs struct {
	ItemID string `json:"itemId"`
}

func (AdvanceArgs) Kind() string { return "practice_advance" }

// AdvanceQueue is the queue that recognition of recordings in progress
// runs on, with AdvanceWorkers at once on each instance. On a busy box a
// step waits for a decoder behind the finished answers (see
// transcribe.Incremental); on the queue of the answers' own pipeline
// such steps held the workers that a finished answer's transcription,
// which a student waits for, needed to start.
const (
	AdvanceQueue   = "practice_advance"
	AdvanceWorkers = 4
)

// AppendAdmitted stores piece as the bytes of the recording of the
// question AdmitAnswer admitted, from offset on, and returns how many bytes
// of the recording the server now has. A piece at offset 0 starts the
// recording afresh. Pieces must arrive in order; one sent again (its
// answer was lost) is accepted as long as it repeats bytes the server has.
//
// The piece is written to disk after admission, and the student's other
// tab may answer or their trial or pass end meanwhile: the transaction
// that records the piece, first or later, decides under the student's
// lock, on their account as it then stands, whether spec §4 still lets
// them answer.
//
// heardSoFar is what the student's browser has heard of the recording up
// to this piece, when they chose to be heard by it ("" otherwise): the
// server lines it up with the recording while it arrives (advanceItem).
func (s *Service) AppendAdmitted(ctx context.Context, u auth.User, it Item, offset int64, mimeType string, piece []byte, heardSoFar string) (int64, error) {
	if len(piece) == 0 {
		return 0, apperr.Invalid("body", "The piece of the recording is empty.")
	}
	heardSoFar = strings.TrimSpace(heardSoFar)
	if utf8.RuneCountInString(heardSoFar) > MaxBrowserTranscriptLen {
		return 0, apperr.Invalid("Heard-So-Far", "What the browser heard so far is longer than %d characters.", MaxBrowserTranscriptLen)
	}
	if offset == 0 {
		return s.startStream(ctx, u, it, mimeType, piece)
	}
	switch {
	case it.streamPath == "":
		return 0, apperr.Conflict("No recording is being uploaded for this question: send its first piece at offset 0.")
	case offset > it.streamBytes:
		return 0, apperr.Conflict(fmt.Sprintf("A piece of the recording is missing: the server has %d bytes, this piece starts at %d.", it.streamBytes, offset))
	case offset+int64(len(piece)) <= it.streamBytes:
		return it.streamBytes, nil // a piece sent again
	}
	fresh := piece[it.streamBytes-offset:]
	size := it.streamBytes + int64(len(fresh))
	if size > s.cfg.MaxAudioBytes {
		return 0, s.tooLarge()
	}
	// This copy's scratch copy, made from the database when the earlier
	// pieces went to another copy.
	local, err := s.localAudio(ctx, it.streamPath, it.streamBytes)
	if errors.Is(err, os.ErrNotExist) {
		return 0, apperr.Conflict(MsgRecordingGone)
	}
	if err != nil {
		return 0, err
	}
	if err := writeAt(local, fresh, it.streamBytes); err != nil {
		return 0, storageErr(err)
	}
	err = s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		if _, err := s.ownItem(ctx, tx, u, it.sessionID, it.ID); err != nil {
			return err
		}
		if err := s.checkAnswerAllowed(ctx, tx, u, it.sessionID); err != nil {
			return err
		}
		if err := checkBytesInFlight(ctx, tx, u.ID, it.ID, size); err != nil {
			return err
		}
		recorded, err := recordPiece(ctx, tx, it.ID, it.streamPath, it.streamBytes, size, heardSoFar)
		if err != nil {
			return err
		}
		if !recorded {
			// Another request for the same bytes won; it wrote what this one did.
			return apperr.Conflict("The recording changed while this piece arrived: send the next piece again.")
		}
		if err := storeAudioPiece(ctx, tx, it.ID, it.streamPath, it.streamBytes, fresh); err != nil {
			return err
		}
		return s.maybeAdvance(ctx, tx, it)
	})
	if err != nil {
		return 0, err
	}
	return size, nil
}

// startStream begins a recording with its first piece, replacing any
// earlier one for the item. The answer counts toward the daily usage
// guard from its first piece on, as a whole upload does.
func (s *Service) startStream(ctx context.Context, u auth.User, it Item, mimeType string, piece []byte) (int64, error) {
	path, size, err := s.saveAudio(it.ID, bytes.NewReader(piece))
	if err != nil {
		return 0, err
	}
	var replaced string
	err = s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		current, err := s.ownItem(ctx, tx, u, it.sessionID, it.ID)
		if err != nil {
			return err
		}
		if err := s.checkAnswerAllowed(ctx, tx, u, it.sessionID); err != nil {
			return err
		}
		if replaced = current.streamPath; replaced == "" {
			if err := s.checkUsage(ctx, tx, u.ID); err != nil {
				return err
			}
			if err := s.users.CountAnswer(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		if err := checkBytesInFlight(ctx, tx, u.ID, it.ID, size); err != nil {
			return err
		}
		// The first recognition is due once the recording can hold a step
		// (maybeAdvance): one second of speech is not worth a decoder's time.
		started, err := startStream(ctx, tx, it.ID, path, mimeType, size, s.clock())
		if err == nil && !started {
			err = apperr.Conflict(msgAlreadyAnswered)
		}
		if err != nil {
			return err
		}
		if err := deleteStoredAudio(ctx, tx, replaced); err != nil {
			return err
		}
		return storeAudioPiece(ctx, tx, it.ID, path, 0, piece)
	})
	if err != nil {
		removeAudio(s.logger, path)
		return 0, err
	}
	removeAudio(s.logger, s.scratch(replaced))
	return size, nil
}

// checkBytesInFlight refuses to let the user's recordings arriving in
// pieces grow past MaxBytesInFlight once itemID's holds size bytes.
func checkBytesInFlight(ctx context.Context, q store.Queryer, userID, itemID string, size int64) error {
	others, err := streamingBytes(ctx, q, userID, itemID)
	if err != nil {
		return err
	}
	if others+size > MaxBytesInFlight {
		return apperr.Conflict(fmt.Sprintf("Too many recordings are uploading for your account at once (the limit is %d MB). "+
			"Finish or skip the other questions first.", MaxBytesInFlight>>20))
	}
	return nil
}

// maybeAdvance queues recognition of the recording so far when the engine
// can do it and the last time was at least AdvanceEvery ago. Pieces arrive
// as the student speaks, so before anything was recognised the time since
// the recording started is its length: until it can hold the engine's
// first step, a decoder run could only measure it.
func (s *Service) maybeAdvance(ctx context.Context, tx *sql.Tx, it Item) error {
	if s.incremental == nil {
		return nil
	}
	wait := s.cfg.AdvanceEvery
	if it.progress == nil && wait > 0 {
		wait = max(wait, s.incremental.FirstStep())
	}
	now := s.clock()
	if it.progressAt != nil && now.Sub(*it.progressAt) < wait {
		return nil
	}
	if err := noteRecognition(ctx, tx, it.ID, now); err != nil {
		return err
	}
	// One attempt: a failure costs nothing but time, as FinishAudio's
	// transcription recognises whatever the progress does not cover.
	_, err := s.jobs.InsertTx(ctx, tx, AdvanceArgs{ItemID: it.ID}, &river.InsertOpts{MaxAttempts: 1, Queue: AdvanceQueue})
	return err
}

// Observed is what the student's browser observed of an answer beside
// recording it, sent with the finish call: what it heard, when the
// student chose to be heard by it, and what it measured of a video
// answer's presence on camera. Either may be nil.
type Observed struct {
	Heard *BrowserTranscript
	Seen  *video.Delivery
}

// FinishAudio queues the recording that arrived in pieces, size bytes in
// all, like a whole upload, with what the student's browser observed of
// it. Finishing an answer already queued succeeds.
func (s *Service) FinishAudio(ctx context.Context, u auth.User, sessionID, itemID string, size int64, observed Observed) (Item, error) {
	if err := observed.Heard.check(); err != nil {
		return Item{}, err
	}
	var it Item
	err := s.withUserTx(ctx, u.ID, func(tx *sql.Tx) error {
		owned, err := s.activeItem(ctx, tx, u, sessionID, itemID)
		if err != nil {
			return err
		}
		switch it = owned.Item; {
		case it.Status == StatusSkipped:
			return apperr.Conflict("This question was skipped.")
		case observed.Seen != nil && owned.mode != ModeVideo:
			return apperr.Invalid("videoDelivery", "This session records audio only: there is no video to measure.")
		case !it.awaitsAnswer():
			// Most likely this request was sent again after its answer was
			// lost: the recording is in, which is what the client wants to hear.
			return nil
		case it.streamPath == "":
			return apperr.Conflict("No recording was uploaded for this question.")
		case it.streamBytes != size:
			return apperr.Conflict(fmt.Sprintf("Part of the recording did not arrive: the server has %d of its %d bytes.", it.streamBytes, size))
		}
		// The database holds the recording as recorded: whatever a failed
		// append left in a scratch copy is not used.
		if _, err := s.queueAnswer(ctx, tx, u, it, it.streamPath, it.streamMIME); err != nil {
			return err
		}
		if err := observed.Seen.Check(float64(it.AnswerSeconds)); err != nil {
			return err
		}
		if err := saveBrowserTranscript(ctx, tx, it.ID, observed.Heard); err != nil {
			return err
		}
		if err := saveVideoDelivery(ctx, tx, it.ID, observed.Seen); err != nil {
			return err
		}
		it.Status = StatusQueued
		return nil
	})
	if err != nil {
		return Item{}, err
	}
	return it, nil
}

func writeAt(path string, b []byte, off int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(b, off)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

type advanceWorker struct {
	river.WorkerDefaults[AdvanceArgs]
	s *Service
}

func (w *advanceWorker) Work(ctx context.Context, job *river.Job[AdvanceArgs]) error {
	return w.s.advanceItem(ctx, job.Args.ItemID)
}

// Timeout keeps recognition of a recording in progress from holding a
// worker long: the next piece will queue it again.
func (w *advanceWorker) Timeout(*river.Job[AdvanceArgs]) time.Duration { return 30 * time.Second }

// advanceItem recognises what has arrived of a recording in progress. It
// is best effort: on any failure the progress stays as it was.
func (s *Service) advanceItem(ctx context.Context, itemID string) error {
	ctx, done := s.steps.start(ctx, itemID)
	defer done()
	err := s.advanceStep(ctx, itemID)
	if ctx.Err() != nil {
		// Stopped: the answer was finished and its transcription does the
		// rest (or the server is stopping). Nothing went wrong.
		return nil
	}
	return err
}

// advanceStep is one step of advanceItem.
func (s *Service) advanceStep(ctx context.Context, itemID string) error {
	it, err := loadItem(ctx, s.db.SQL, itemID)
	if errors.Is(err, errNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if s.incremental == nil || it.streamPath == "" || !it.awaitsAnswer() {
		return nil
	}
	var p transcribe.Progress
	if it.progress != nil {
		p = *it.progress
	}
	if p.Warp == 0 {
		p.Warp = s.startingWarp(ctx, it.sessionID)
	}
	local, err := s.localAudio(ctx, it.streamPath, it.streamBytes)
	if err != nil {
		s.logger.Info("could not read a recording in progress; it will be recognized when it ends", "item", itemID, "err", err)
		return nil
	}
	in := transcribe.Audio{Path: local, MIMEType: it.streamMIME, Limit: it.answerLimit()}
	next, err := s.incremental.Advance(ctx, in, p)
	if err != nil {
		s.logger.Info("could not recognize a recording in progress; it will be done when it ends", "item", itemID, "err", err)
		next = p
	}
	// The student's browser is hearing them: what it heard so far is lined
	// up too, so that only the answer's last words are left when it ends.
	// The recognition above goes on all the same, for when the recording
	// does not support the browser's words.
	if err := s.advanceAlignment(ctx, it, in, &next); err != nil {
		s.logger.Info("could not line up a recording in progress with what the browser heard; it will be done when it ends", "item", itemID, "err", err)
	}
	if !next.Learned(p) {
		return nil
	}
	return saveProgress(ctx, s.db.SQL, itemID, it.streamPath, next)
}

// advanceAlignment places what the student's browser heard so far of the
// item's recording in progress, beyond what p placed, into p.
func (s *Service) advanceAlignment(ctx context.Context, it Item, in transcribe.Audio, p *transcribe.Progress) error {
	aligner, ok := transcribe.AsAligner(s.speech)
	if !ok {
		return nil
	}
	heard, err := heardSoFar(ctx, s.db.SQL, it.ID, it.streamPath)
	if err != nil || heard == "" {
		return err
	}
	aligned, err := aligner.AdvanceAlign(ctx, in, heard, p.Aligned)
	if err != nil {
		return err
	}
	p.Aligned = aligned
	return nil
}

// runningSteps are recognition steps of recordings in progress, by item.
// Once the answer is finished its transcription starts from the progress
// saved so far: a step still running can only compete with it for the
// CPU, so the transcription stops it (a step in another process runs on).
type runningSteps struct {
	mu      sync.Mutex
	running map[string]*context.CancelFunc
}

// start registers a step of itemID's recording; done ends it.
func (r *runningSteps) start(ctx context.Context, itemID string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	mine := &cancel
	r.mu.Lock()
	if r.running == nil {
		r.running = map[string]*context.CancelFunc{}
	}
	r.running[itemID] = mine
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		if r.running[itemID] == mine { // not a later step's
			delete(r.running, itemID)
		}
		r.mu.Unlock()
		cancel()
	}
}

// stop cancels the step of itemID's recording running here, if any.
func (r *runningSteps) stop(itemID string) {
	r.mu.Lock()
	cancel := r.running[itemID]
	r.mu.Unlock()
	if cancel != nil {
		(*cancel)()
	}
}
