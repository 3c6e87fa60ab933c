package profession

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/route"
)

// newAPI serves the profession routes behind the guard, as the app does.
func newAPI(t *testing.T) humatest.TestAPI {
	_, api := humatest.New(t)
	api.UseMiddleware(route.Guard(api, auth.Admit))
	RegisterRoutes(api)
	return api
}

func TestListProfessions(t *testing.T) {
	api := newAPI(t)

	resp := api.Get("/api/professions")
	if resp.Code != http.StatusOK {
		t.Fatalf("status = %d, body %s", resp.Code, resp.Body)
	}
	var body struct {
		Professions      []Profession `json:"professions"`
		DefaultSlug      string       `json:"defaultSlug"`
		DefaultHeroTitle string       `json:"defaultHeroTitle"`
	}
	if err := json.Unmarshal(resp.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Professions) != 7 {
		t.Fatalf("got %d professions, want 7", len(body.Professions))
	}
	for i, slug := range Slugs() {
		if body.Professions[i].Slug != slug {
			t.Errorf("professions[%d].slug = %q, want %q", i, body.Professions[i].Slug, slug)
		}
	}
	if body.DefaultSlug != "dental" || body.DefaultHeroTitle != "Ace your healthcare school interviews." {
		t.Errorf("defaults = %q, %q", body.DefaultSlug, body.DefaultHeroTitle)
	}
	if !strings.Contains(resp.Body.String(), `"interviewFormats"`) || !strings.Contains(resp.Body.String(), `"tipsIntro"`) {
		t.Errorf("body lacks camelCase fields: %s", resp.Body)
	}
}

func TestGetProfession(t *testing.T) {
	api := newAPI(t)

	tests := []struct {
		path       string
		wantStatus int
		wantSlug   string
		wantDetail string
	}{
		{"/api/professions/dental", http.StatusOK, "dental", ""},
		{"/api/professions/Medical", http.StatusOK, "medical", ""},
		{"/api/professions/OT", http.StatusOK, "ot", ""},
		{"/api/professions/nursing", http.StatusNotFound, "", `unknown profession "nursing"; known professions are dental, medical, pt, pa, pharmacy, ot, veterinary`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp := api.Get(tt.path)
			if resp.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", resp.Code, tt.wantStatus, resp.Body)
			}
			var body struct {
				Slug   string `json:"slug"`
				Detail string `json:"detail"`
			}
			if err := json.Unmarshal(resp.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if body.Slug != tt.wantSlug || body.Detail != tt.wantDetail {
				t.Errorf("slug %q detail %q; want %q, %q", body.Slug, body.Detail, tt.wantSlug, tt.wantDetail)
			}
		})
	}
}
