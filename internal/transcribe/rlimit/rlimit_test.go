package rlimit

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func requirePrlimit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skipf("SKIPPING: prlimit not installed (apt-get install util-linux): %v", err)
	}
}

func TestCPULimitKillsASpinningProcess(t *testing.T) {
	requirePrlimit(t)
	l := Limits{CPU: time.Second}
	cmd, err := Command(context.Background(), l, "sh", "-c", "while :; do :; done")
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || !l.OutOfCPU(cmd.ProcessState) {
		t.Fatalf("err = %v, state %v: want killed at the CPU limit", err, cmd.ProcessState)
	}
}

func TestDataLimitFailsAllocations(t *testing.T) {
	requirePrlimit(t)
	// dd allocates its block buffer up front: 64 MiB is refused under 32 MiB.
	cmd, err := Command(context.Background(), Limits{Data: 32 << 20}, "dd", "if=/dev/zero", "of=/dev/null", "bs=64M", "count=1")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.Success() {
		t.Fatalf("dd allocated 64 MiB under a 32 MiB limit: %s", out)
	}
	if (Limits{CPU: time.Minute}).OutOfCPU(cmd.ProcessState) {
		t.Error("a failed allocation counted as out of CPU")
	}
}

func TestMissingProgramIsNotFound(t *testing.T) {
	_, err := Command(context.Background(), Limits{}, "whitecoat-no-such-program")
	if !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("err = %v, want exec.ErrNotFound", err)
	}
}

// A lowered priority holds in the program run: nice(1) without arguments
// prints its own.
func TestNiceLowersThePriority(t *testing.T) {
	requirePrlimit(t)
	niceness := func(l Limits) string {
		cmd, err := Command(context.Background(), l, "nice")
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	if lowered := niceness(Limits{Nice: 19}); lowered != "19" {
		t.Fatalf("niceness %s, want 19", lowered)
	}
}
