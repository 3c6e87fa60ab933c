package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeChat speaks the chat-completions protocol in place of the remote
// model: it reads the answer out of the user message and replies in the
// engine's schema, every criterion at a level that grows with the answer's
// length — enough to make the report's figures move, not a judgement.
func fakeChat(t *testing.T, requests *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer bench-key" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var data struct {
			Transcript string `json:"transcript"`
		}
		if err := json.Unmarshal([]byte(req.Messages[1].Content), &data); err != nil {
			http.Error(w, "user message is not JSON", http.StatusBadRequest)
			return
		}
		requests.Add(1)
		level := min(7, 2+len(strings.Fields(data.Transcript))/40)
		crit := map[string]any{}
		for _, k := range []string{"relevance", "judgement", "evidence", "insight", "fit", "structure", "flow", "economy", "presence"} {
			crit[k] = map[string]any{"quote": "", "reason": "length", "level": level}
		}
		reply, _ := json.Marshal(map[string]any{"redFlags": []any{}, "criteria": crit, "summary": "A fake judgement.", "suggestions": []string{}})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-bench", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(reply)}}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestBenchRunsTheLLMEngineWhenAKeyIsSet(t *testing.T) {
	var requests atomic.Int64
	srv := fakeChat(t, &requests)
	t.Setenv("FEEDBACK_OPENAI_API_KEY", "bench-key")
	t.Setenv("FEEDBACK_OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("FEEDBACK_OPENAI_MODEL", "fake-model")
	as, err := loadAnswers()
	if err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if err := run(context.Background(), []string{"-engine", "llm"}, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if n := requests.Load(); n != int64(2*len(as)) {
		t.Errorf("%d requests, want one per answer, clean and as transcribed: %d", n, 2*len(as))
	}
	for _, want := range []string{"LLM engine: model fake-model at " + srv.URL + "/v1", "Agreement with the interviewers' labels", "By category (targets", "Answers to the bank's own questions (v3"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// The interviewers' notes may say anything ("skipped the incident
	// report"); only the bench's own lines count.
	if strings.Contains(got, "scorings fell back to the rubric") || strings.Contains(got, "LLM engine: skipped") {
		t.Errorf("output reports fallbacks or a skip:\n%s", got)
	}
	if strings.Count(got, "Agreement with") != 1 {
		t.Errorf("-engine llm printed the rubric's report too:\n%s", got)
	}

	// Without -engine both run, the rubric first.
	out.Reset()
	if err := run(context.Background(), nil, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Count(got, "Agreement with") != 2 || strings.Index(got, "LLM engine") < strings.Index(got, "Agreement with") {
		t.Errorf("want the rubric's report, then the LLM's:\n%s", got)
	}
}

func TestBenchSkipsTheLLMEngineWithoutAKey(t *testing.T) {
	t.Setenv("FEEDBACK_OPENAI_API_KEY", "")
	t.Setenv("FEEDBACK_OPENAI_BASE_URL", "http://127.0.0.1:1/v1") // never dialled
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-engine", "llm"}, &out); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "skipped") {
		t.Errorf("output %q, want one line saying the LLM engine was skipped", out.String())
	}
	if err := run(context.Background(), []string{"-engine", "gpt"}, &out); err == nil {
		t.Error("an unknown engine was accepted")
	}
}

// A key that does not work is an error, not a report of the rubric's
// scores under the LLM's name.
func TestBenchFailsWhenTheLLMScoresNothing(t *testing.T) {
	var requests atomic.Int64
	srv := fakeChat(t, &requests)
	t.Setenv("FEEDBACK_OPENAI_API_KEY", "wrong-key")
	t.Setenv("FEEDBACK_OPENAI_BASE_URL", srv.URL+"/v1")
	var out bytes.Buffer
	err := run(context.Background(), []string{"-engine", "llm"}, &out)
	if err == nil || !strings.Contains(err.Error(), "HTTP 400") {
		t.Errorf("err %v, want the engine's failure", err)
	}
}
