package rlimit

import (
	"os"
	"sync"
	"time"
)

// Why a helper program ran, for the CPU accounts: the kernel adds a
// finished child's processor time to its parent's without a word of
// which program it was, so the server's CPU could not be told apart
// into decoding, recognition and alignment (issue 43).
const (
	// PurposeDecode is ffmpeg: decoding a recording, scaling a voice.
	PurposeDecode = "decode"
	// PurposeRecognize is a decoder worker of the recognizer's pool.
	PurposeRecognize = "recognize"
	// PurposeAlign is a one-off pocketsphinx run lining a given text up
	// with the audio.
	PurposeAlign = "align"
)

// Purposes lists every purpose the accounts keep, in a fixed order.
var Purposes = []string{PurposeDecode, PurposeRecognize, PurposeAlign}

// spent is the CPU time of the finished helper programs, by purpose.
// It is the process's own account, as the kernel's children times are:
// one for every engine the process runs, so it lives here, beside the
// one function that starts them, and not in an engine.
var spent = struct {
	sync.Mutex
	by map[string]time.Duration
}{by: map[string]time.Duration{}}

// Account adds what the finished process used to purpose's account. A
// process that never ran (nil state) adds nothing.
func Account(purpose string, state *os.ProcessState) {
	used := CPUTime(state)
	if used == 0 {
		return
	}
	spent.Lock()
	spent.by[purpose] += used
	spent.Unlock()
}

// Spent is the CPU time the finished helper programs of purpose have
// used since the process started.
func Spent(purpose string) time.Duration {
	spent.Lock()
	defer spent.Unlock()
	return spent.by[purpose]
}
