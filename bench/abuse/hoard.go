package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"

	"github.com/whitecoat/whitecoat/bench/internal/benchserver"
)

// hoardTarget is how many saved sessions the hoarding student tries to
// keep: the issue saw 1,000 slow every student's dashboard.
const hoardTarget = 1000

// hoarder is a second student with a Premium pass who saves as many
// sessions as the server lets them.
type hoarder struct {
	client *benchserver.Client
	saved  int
	// refused is the server's answer that ended the saving early, if any.
	refused string
}

// hoard makes the hoarding student and saves up to hoardTarget one-question
// sessions, each skipped, completed and saved. One after another: a
// student has one session open at a time (a new one ends the last).
func hoard(ctx context.Context, srv *benchserver.Server) (*hoarder, error) {
	email := "hoarder-" + randomHex(4) + "@example.com"
	if err := srv.CreateAccount(ctx, email, benchserver.Password); err != nil {
		return nil, err
	}
	h := &hoarder{client: benchserver.NewClient(srv.Base)}
	if err := h.client.Call(http.MethodPost, "/api/auth/login", "application/json",
		benchserver.MustJSON(map[string]string{"email": email, "password": benchserver.Password}), http.StatusOK, nil); err != nil {
		return nil, err
	}
	for h.saved < hoardTarget && h.refused == "" {
		refused, err := h.saveOne(ctx)
		if err != nil {
			return nil, err
		}
		if h.refused = refused; refused == "" {
			h.saved++
		}
	}
	return h, nil
}

// saveOne saves one skipped session; refused is the server's answer when
// it will not keep another.
func (h *hoarder) saveOne(ctx context.Context) (refused string, err error) {
	var created benchserver.SessionBody
	if err := h.client.Call(http.MethodPost, "/api/practice/sessions", "application/json",
		benchserver.MustJSON(map[string]any{"profession": "dental", "mode": "audio", "interviewType": "random", "questionCount": 1, "big3": false}),
		http.StatusCreated, &created); err != nil {
		return "", err
	}
	base := "/api/practice/sessions/" + created.Session.ID
	for _, step := range []struct{ path, body string }{
		{base + "/items/" + created.Session.Items[0].ID + "/skip", ""},
		{base + "/complete", `{"totalSessionTime":60}`},
		{base + "/save", fmt.Sprintf(`{"title":"Hoarded session %s"}`, randomHex(3))},
	} {
		r, err := send(ctx, h.client, http.MethodPost, step.path, []byte(step.body), nil)
		if err != nil {
			return "", err
		}
		if r.status/100 != 2 {
			if step.path == base+"/save" && r.status/100 == 4 {
				return fmt.Sprintf("%d %s", r.status, r.body), nil
			}
			return "", fmt.Errorf("POST %s: %d %s", step.path, r.status, r.body)
		}
	}
	return "", nil
}

// historyFlood searches the hoarder's history for words the titles and
// questions may hold, on any page, as fast as the server answers.
func historyFlood(ctx context.Context, h *hoarder, t *tally) {
	words := []string{"why", "tell", "dentist", "team", "Hoarded", "patient", "zz" + randomHex(2)}
	for ctx.Err() == nil {
		q := url.Values{"q": {words[rand.IntN(len(words))]}, "page": {fmt.Sprint(1 + rand.IntN(50))}}
		r, err := send(ctx, h.client, http.MethodGet, "/api/practice/history?"+q.Encode(), nil, nil)
		if err != nil {
			if ctx.Err() == nil {
				t.failed()
			}
			continue
		}
		t.add(r.status)
	}
}
