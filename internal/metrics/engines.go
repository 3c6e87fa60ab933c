package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/transcribe"
	"github.com/whitecoat/whitecoat/internal/transcribe/sphinx"
)

// Speech times engine's work. An engine that can work on a recording
// while it is made stays one (practice asks for transcribe.Incremental);
// one that aligns is found through Unwrap (transcribe.AsAligner).
// One that searches less thoroughly under load reports how much speech
// each search recognised.
func (m *Metrics) Speech(engine transcribe.Engine) transcribe.Engine {
	if adaptive, ok := engine.(transcribe.LoadAdaptive); ok {
		for search := range adaptive.SpeechBySearch() {
			m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "whitecoat_speech_searched_seconds_total",
				Help:        "Audio the speech engine recognized, by search: thorough, or quick while the box is short of CPU.",
				ConstLabels: prometheus.Labels{"search": search},
			}, func() float64 { return adaptive.SpeechBySearch()[search].Seconds() }))
		}
		m.registry.MustRegister(decoderWaits{adaptive: adaptive, desc: prometheus.NewDesc("whitecoat_speech_decoder_wait_seconds",
			"How long recognition waited for a decoder, by priority: awaited (a finished answer a student waits for), ahead (a recording still arriving), spare (a visitor's try).",
			[]string{"priority"}, nil)})
	}
	timed := timedSpeech{Engine: engine, m: m}
	if incremental, ok := engine.(transcribe.Incremental); ok {
		return timedIncremental{timedSpeech: timed, inner: incremental}
	}
	return timed
}

type timedSpeech struct {
	transcribe.Engine
	m *Metrics
}

// Unwrap is the engine timed, for what else it can do (transcribe.AsAligner).
func (t timedSpeech) Unwrap() transcribe.Engine { return t.Engine }

func (t timedSpeech) Transcribe(ctx context.Context, in transcribe.Audio) (transcribe.Result, error) {
	start := time.Now()
	res, err := t.Engine.Transcribe(ctx, in)
	t.m.Recognised(t.Name(), time.Since(start), finished(res, err))
	return res, err
}

type timedIncremental struct {
	timedSpeech
	inner transcribe.Incremental
}

func (t timedIncremental) Advance(ctx context.Context, in transcribe.Audio, p transcribe.Progress) (transcribe.Progress, error) {
	start := time.Now()
	next, err := t.inner.Advance(ctx, in, p)
	t.m.Recognised(t.Name(), time.Since(start), 0)
	return next, err
}

func (t timedIncremental) FirstStep() time.Duration { return t.inner.FirstStep() }

func (t timedIncremental) Finish(ctx context.Context, in transcribe.Audio, p transcribe.Progress) (transcribe.Result, error) {
	start := time.Now()
	res, err := t.inner.Finish(ctx, in, p)
	t.m.Recognised(t.Name(), time.Since(start), finished(res, err))
	return res, err
}

// finished is the length of an answer recognised to the end, or 0.
func finished(res transcribe.Result, err error) float64 {
	if err != nil {
		return 0
	}
	return res.DurationSeconds
}

// Feedback times engine's scoring.
func (m *Metrics) Feedback(engine feedback.Engine) feedback.Engine {
	return timedFeedback{inner: engine, m: m}
}

type timedFeedback struct {
	inner feedback.Engine
	m     *Metrics
}

func (t timedFeedback) Score(ctx context.Context, in feedback.Input) (feedback.Feedback, error) {
	start := time.Now()
	fb, err := t.inner.Score(ctx, in)
	t.m.Scored(time.Since(start), err)
	return fb, err
}

// decoderWaits reads the engine's waits for a decoder at each scrape.
type decoderWaits struct {
	adaptive transcribe.LoadAdaptive
	desc     *prometheus.Desc
}

func (d decoderWaits) Describe(ch chan<- *prometheus.Desc) { ch <- d.desc }

func (d decoderWaits) Collect(ch chan<- prometheus.Metric) {
	for priority, w := range d.adaptive.DecoderWaits() {
		buckets := make(map[float64]uint64, len(sphinx.WaitBounds))
		for i, bound := range sphinx.WaitBounds {
			buckets[bound] = w.Buckets[i]
		}
		ch <- prometheus.MustNewConstHistogram(d.desc, w.Count, w.Sum, buckets, priority)
	}
}
