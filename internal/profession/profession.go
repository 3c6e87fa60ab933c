// Package profession holds the configuration and copy for the health
// professions Whitecoat prepares applicants for. It is the single source of
// truth: the web app reads it from the API rather than keeping its own copy.
package profession

import "strings"

// DefaultHeroTitle is the landing title used when no profession is in play.
const DefaultHeroTitle = "Ace your healthcare school interviews."

// Tip is one piece of interview advice shown on a landing page.
type Tip struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// Profession is one health profession's configuration and landing copy.
type Profession struct {
	Slug        string `json:"slug"`
	DisplayName string `json:"displayName"`
	// Practitioner is who the profession trains ("dentist"), as feedback
	// names them; the web has no use for it.
	Practitioner     string   `json:"-"`
	HeroTitle        string   `json:"heroTitle"`
	HeroSubtitle     string   `json:"heroSubtitle"`
	DefaultQuestion  string   `json:"defaultQuestion"`
	TipsIntro        string   `json:"tipsIntro"`
	Tips             []Tip    `json:"tips"`
	QuestionTags     []string `json:"questionTags"`
	InterviewFormats string   `json:"interviewFormats"`
}

// Default is the profession used when none is chosen.
var Default = all[0].clone()

// All returns every profession in a stable display order. The result is a
// fresh copy so callers cannot alter the registry.
func All() []Profession {
	out := make([]Profession, len(all))
	for i, p := range all {
		out[i] = p.clone()
	}
	return out
}

// Slugs returns every profession slug in the same order as All.
func Slugs() []string {
	out := make([]string, len(all))
	for i, p := range all {
		out[i] = p.Slug
	}
	return out
}

// Lookup finds a profession by slug, ignoring case and surrounding spaces
// because slugs arrive from URLs and hand-edited import files.
func Lookup(slug string) (Profession, bool) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	for _, p := range all {
		if p.Slug == slug {
			return p.clone(), true
		}
	}
	return Profession{}, false
}

// IsKnown reports whether slug names a profession, ignoring case.
func IsKnown(slug string) bool {
	_, ok := Lookup(slug)
	return ok
}

func (p Profession) clone() Profession {
	p.Tips = append([]Tip(nil), p.Tips...)
	p.QuestionTags = append([]string(nil), p.QuestionTags...)
	return p
}
