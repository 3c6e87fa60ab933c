// Package metrics is what the server tells Prometheus about itself: request
// latency by route and status, the job queue, the engines' speed and the
// work waiting on the machine's cores. It is served on its own listener
// (METRICS_ADDR), never on the public one.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/whitecoat/whitecoat/internal/transcribe/rlimit"
)

// Metrics holds the server's series in a registry of its own.
type Metrics struct {
	registry        *prometheus.Registry
	requests        *prometheus.HistogramVec
	uploadsInFlight prometheus.Gauge
	speechSeconds   *prometheus.CounterVec
	audioSeconds    *prometheus.CounterVec
	realTimeFactor  *prometheus.HistogramVec
	feedbackSeconds *prometheus.HistogramVec
}

// New makes the series, with the Go runtime's and the process's.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "whitecoat_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern, method and status.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method", "status"}),
		uploadsInFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "whitecoat_uploads_in_flight",
			Help: "Recorded answers (whole or in pieces) being received right now.",
		}),
		speechSeconds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "whitecoat_speech_seconds_total",
			Help: "Time the speech engine spent recognizing answers.",
		}, []string{"engine"}),
		audioSeconds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "whitecoat_speech_audio_seconds_total",
			Help: "Length of the answers the speech engine finished.",
		}, []string{"engine"}),
		realTimeFactor: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "whitecoat_speech_real_time_factor",
			Help:    "Recognition time over answer length, per finished answer (for an answer streamed in pieces, the last step only).",
			Buckets: []float64{.02, .05, .1, .2, .3, .5, .75, 1, 1.5, 2, 4},
		}, []string{"engine"}),
		feedbackSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "whitecoat_feedback_duration_seconds",
			Help:    "Time to score one answer, by outcome.",
			Buckets: []float64{.001, .005, .01, .05, .1, .5, 1, 2.5, 5, 10, 30},
		}, []string{"outcome"}),
	}
	m.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.uploadsInFlight, m.speechSeconds, m.audioSeconds, m.realTimeFactor, m.feedbackSeconds)
	// The process collector's CPU is the server's own; what its helper
	// programs use is told apart by why they ran.
	for _, purpose := range rlimit.Purposes {
		m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "whitecoat_helper_cpu_seconds_total",
			Help:        "Processor time of the speech engine's finished helper programs, by purpose: ffmpeg decoding, a pocketsphinx decoder worker recognizing (added when the worker exits), pocketsphinx aligning a given text.",
			ConstLabels: prometheus.Labels{"purpose": purpose},
		}, func() float64 { return rlimit.Spent(purpose).Seconds() }))
	}
	return m
}

// Handler serves the series in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// Gauge adds a series read when Prometheus scrapes, such as a queue's length.
func (m *Metrics) Gauge(name, help string, read func() float64) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, read))
}

// Collect adds series computed at each scrape by collect, which reports
// each value with its labels; a scrape waits for it at most timeout.
func (m *Metrics) Collect(name, help string, labels []string, timeout time.Duration, collect func(ctx context.Context, report func(value float64, labelValues ...string)) error) {
	m.registry.MustRegister(&scrapeCollector{desc: prometheus.NewDesc(name, help, labels, nil), timeout: timeout, collect: collect})
}

type scrapeCollector struct {
	desc    *prometheus.Desc
	timeout time.Duration
	collect func(ctx context.Context, report func(value float64, labelValues ...string)) error
}

func (c *scrapeCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *scrapeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	err := c.collect(ctx, func(value float64, labelValues ...string) {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, value, labelValues...)
	})
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
	}
}

// Requests times every request through next. route names the pattern
// that serves a request ("" for none), so that series stay few: by
// pattern, never by path. uploads says which patterns receive recordings.
func (m *Metrics) Requests(next http.Handler, route func(*http.Request) string, uploads map[string]bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pattern := route(r)
		if uploads[pattern] {
			m.uploadsInFlight.Inc()
			defer m.uploadsInFlight.Dec()
		}
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if pattern == "" {
			pattern = "unmatched"
		}
		m.requests.WithLabelValues(pattern, r.Method, strconv.Itoa(rec.status)).Observe(time.Since(start).Seconds())
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wroteHeader {
		r.status, r.wroteHeader = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushing) through the recorder.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Recognised records one call to the speech engine: how long it took and,
// for a finished answer, the answer's length.
func (m *Metrics) Recognised(engine string, took time.Duration, answerSeconds float64) {
	m.speechSeconds.WithLabelValues(engine).Add(took.Seconds())
	if answerSeconds > 0 {
		m.audioSeconds.WithLabelValues(engine).Add(answerSeconds)
		m.realTimeFactor.WithLabelValues(engine).Observe(took.Seconds() / answerSeconds)
	}
}

// Scored records the time one answer's feedback took.
func (m *Metrics) Scored(took time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.feedbackSeconds.WithLabelValues(outcome).Observe(took.Seconds())
}
