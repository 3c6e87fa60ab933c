// Package rlimit starts the speech engine's helper programs (ffmpeg,
// pocketsphinx) under kernel resource limits, so that no input can make one
// of them take the machine's memory or a core for as long as it likes.
//
// Go's os/exec cannot set a child's rlimits, and setting them on the server
// would limit the server, so the child is started through prlimit(1) from
// util-linux (an essential Debian package), which sets the limits on itself
// and then execs the program: they hold from the program's first instruction.
package rlimit

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Limits for one process; zero is no limit.
type Limits struct {
	// Data caps the data segment (RLIMIT_DATA), which since Linux 4.7 is the
	// heap and every private writable mapping: what an input can make a
	// decoder allocate. Shared library code is not counted. An allocation
	// past it fails (malloc returns NULL); the process is not killed.
	Data int64
	// CPU caps processor time (RLIMIT_CPU, whole seconds, rounded up); the
	// kernel kills the process with SIGKILL when it is used up.
	CPU time.Duration
	// Nice lowers the process's scheduling priority by this much (nice(1),
	// 19 the lowest): it then runs on what other processes leave.
	Nice int
}

// Command returns the command that runs name with args under l. name and
// prlimit are looked up here, so a missing one is reported by name, before
// anything runs (exec.ErrNotFound when not in PATH).
func Command(ctx context.Context, l Limits, name string, args ...string) (*exec.Cmd, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("rlimit: %w", err)
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		return nil, fmt.Errorf("rlimit: %w (apt-get install util-linux)", err)
	}
	var pargs []string
	if l.Data > 0 {
		pargs = append(pargs, "--data="+strconv.FormatInt(l.Data, 10))
	}
	if l.CPU > 0 {
		pargs = append(pargs, "--cpu="+strconv.FormatInt(l.cpuSeconds(), 10))
	}
	pargs = append(append(pargs, "--", path), args...)
	if l.Nice > 0 {
		// nice(1) (coreutils) lowers itself and execs prlimit, which execs
		// the program: the priority holds from its first instruction too.
		nice, err := exec.LookPath("nice")
		if err != nil {
			return nil, fmt.Errorf("rlimit: %w", err)
		}
		return exec.CommandContext(ctx, nice, append([]string{"-n", strconv.Itoa(l.Nice), prlimit}, pargs...)...), nil
	}
	return exec.CommandContext(ctx, prlimit, pargs...), nil
}

func (l Limits) cpuSeconds() int64 { return int64(math.Ceil(l.CPU.Seconds())) }

// OutOfCPU reports whether the finished process was killed for using up
// its CPU limit: killed by a signal after using at least half of it.
// (Nothing else in it is exact: the times rusage reports are sampled at
// clock ticks and came back a tenth short of a 1 s limit on a busy machine.)
func (l Limits) OutOfCPU(state *os.ProcessState) bool {
	if l.CPU <= 0 || state == nil {
		return false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	used := CPUTime(state)
	return ok && ws.Signaled() && 2*used >= time.Duration(l.cpuSeconds())*time.Second
}

// CPUTime is the processor time the finished process used, user and
// system.
func CPUTime(state *os.ProcessState) time.Duration {
	if state == nil {
		return 0
	}
	return state.UserTime() + state.SystemTime()
}

// PeakRSS is the finished process's largest resident set size, in bytes.
func PeakRSS(state *os.ProcessState) int64 {
	if state == nil {
		return 0
	}
	if ru, ok := state.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // Linux reports kilobytes
	}
	return 0
}
