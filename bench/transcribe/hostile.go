package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/whitecoat/whitecoat/internal/transcribe/mediatest"
)

// maxHostileRSS is the target for one `whitecoat transcribe` of a hostile
// recording: its whole process tree's peak resident set size.
const maxHostileRSS = 300 << 20

// hostileRun is one `whitecoat transcribe` of a crafted file, measured by
// /usr/bin/time -v: the peak RSS of the largest process in its tree
// (whitecoat or the ffmpeg it started), its exit status and what it said.
type hostileRun struct {
	peakRSS int64
	exit    int
	said    string
}

var maxRSSLine = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// hostileMedia runs the sample-table bomb through the whitecoat binary,
// alone and four at once as in the finding (which saw 1.2 GB and 4.5 GB),
// and fails if any run's process tree peaks above maxHostileRSS or the
// file is not refused with a clear message.
func hostileMedia(ctx context.Context, bin string, out io.Writer) error {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return fmt.Errorf("/usr/bin/time missing (apt-get install time): %w", err)
	}
	dir, err := os.MkdirTemp("", "bench-hostile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bomb := filepath.Join(dir, "bomb.mp4")
	data := mediatest.SampleTableBomb()
	if err := os.WriteFile(bomb, data, 0o600); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "hostile recording (%d B, %d samples declared)\tat once\tpeak RSS MB\texit\tmessage\n", len(data), mediatest.BombSamples)
	var failures []string
	for _, n := range []int{1, 4} {
		runs := make([]hostileRun, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { runs[i], errs[i] = timeTranscribe(ctx, bin, bomb) })
		}
		wg.Wait()
		for i, r := range runs {
			if errs[i] != nil {
				return errs[i]
			}
			fmt.Fprintf(tw, "sample-table bomb\t%d\t%.0f\t%d\t%s\n", n, float64(r.peakRSS)/(1<<20), r.exit, r.said)
			if r.peakRSS > maxHostileRSS {
				failures = append(failures, fmt.Sprintf("peak RSS %d MB above %d MB", r.peakRSS>>20, maxHostileRSS>>20))
			}
			if r.exit == 0 || !strings.Contains(r.said, "damaged") {
				failures = append(failures, fmt.Sprintf("not refused as damaged: exit %d, %q", r.exit, r.said))
			}
		}
	}
	tw.Flush()
	fmt.Fprintln(out)
	if len(failures) > 0 {
		return fmt.Errorf("hostile media: %s", strings.Join(failures, "; "))
	}
	return nil
}

func timeTranscribe(ctx context.Context, bin, file string) (hostileRun, error) {
	cmd := exec.CommandContext(ctx, "/usr/bin/time", "-v", bin, "transcribe", file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return hostileRun{}, fmt.Errorf("run %s: %w", bin, err)
	}
	m := maxRSSLine.FindSubmatch(stderr.Bytes())
	if m == nil {
		return hostileRun{}, fmt.Errorf("no peak RSS in /usr/bin/time's report: %s", stderr.String())
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	said, _, _ := strings.Cut(stderr.String(), "\n")
	return hostileRun{peakRSS: kb << 10, exit: cmd.ProcessState.ExitCode(), said: said}, nil
}
