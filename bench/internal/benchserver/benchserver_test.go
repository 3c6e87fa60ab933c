package benchserver

import (
	"strings"
	"testing"
)

// One scrape answers every series the capacity bench reads at a sample.
func TestSeriesInReadsManySeriesFromOneScrape(t *testing.T) {
	const scrape = `# HELP whitecoat_helper_cpu_seconds_total CPU of finished helpers.
# TYPE whitecoat_helper_cpu_seconds_total counter
whitecoat_helper_cpu_seconds_total{purpose="decode"} 1.5
whitecoat_helper_cpu_seconds_total{purpose="recognize"} 12.25
whitecoat_speech_decoder_wait_seconds_bucket{priority="awaited",le="+Inf"} 7
`
	got, err := seriesIn(scrape, []string{`whitecoat_helper_cpu_seconds_total{purpose="recognize"}`, `whitecoat_speech_decoder_wait_seconds_bucket{priority="awaited",le="+Inf"}`}, "test")
	if err != nil || got[`whitecoat_helper_cpu_seconds_total{purpose="recognize"}`] != 12.25 || got[`whitecoat_speech_decoder_wait_seconds_bucket{priority="awaited",le="+Inf"}`] != 7 {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := seriesIn(scrape, []string{`whitecoat_helper_cpu_seconds_total{purpose="align"}`}, "test"); err == nil || !strings.Contains(err.Error(), `purpose="align"`) {
		t.Errorf("a missing series: %v", err)
	}
}
