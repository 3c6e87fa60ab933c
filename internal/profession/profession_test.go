package profession

import (
	"slices"
	"strings"
	"testing"
)

func TestAllOrderAndContent(t *testing.T) {
	want := []string{"dental", "medical", "pt", "pa", "pharmacy", "ot", "veterinary"}
	if got := Slugs(); !slices.Equal(got, want) {
		t.Fatalf("Slugs() = %v, want %v", got, want)
	}
	for _, p := range All() {
		t.Run(p.Slug, func(t *testing.T) {
			fields := map[string]string{
				"displayName":      p.DisplayName,
				"heroTitle":        p.HeroTitle,
				"heroSubtitle":     p.HeroSubtitle,
				"defaultQuestion":  p.DefaultQuestion,
				"tipsIntro":        p.TipsIntro,
				"interviewFormats": p.InterviewFormats,
			}
			for name, v := range fields {
				if strings.TrimSpace(v) == "" {
					t.Errorf("%s is empty", name)
				}
			}
			if len(p.Tips) < 4 {
				t.Errorf("has %d tips, want at least 4", len(p.Tips))
			}
			for i, tip := range p.Tips {
				if tip.Title == "" || tip.Body == "" {
					t.Errorf("tip %d has an empty title or body", i)
				}
			}
			if !slices.Equal(p.QuestionTags, []string{p.Slug}) {
				t.Errorf("questionTags = %v, want [%s]", p.QuestionTags, p.Slug)
			}
			if !strings.HasSuffix(p.DefaultQuestion, "?") {
				t.Errorf("defaultQuestion %q is not a question", p.DefaultQuestion)
			}
		})
	}
}

func TestSpecTexts(t *testing.T) {
	tests := []struct {
		slug, displayName, heroTitle, defaultQuestion string
	}{
		{"dental", "Dental", "Nail Your Dental School Interviews.", "Why do you want to become a dentist?"},
		{"medical", "Medical", "Nail Your Medical School Interviews.", "Why do you want to become a doctor?"},
		{"pt", "Physical Therapy", "Nail Your Physical Therapy School Interviews.", "Why do you want to become a physical therapist?"},
		{"pa", "Physician Assistant", "Nail Your Physician Assistant School Interviews.", "Why do you want to become a physician assistant?"},
		{"pharmacy", "Pharmacy", "Nail Your Pharmacy School Interviews.", "Why do you want to become a pharmacist?"},
		{"ot", "Occupational Therapy", "Nail Your Occupational Therapy School Interviews.", "Why do you want to become an occupational therapist?"},
		{"veterinary", "Veterinary Medicine", "Nail Your Veterinary School Interviews.", "Why do you want to become a veterinarian?"},
	}
	for _, tt := range tests {
		t.Run(tt.slug, func(t *testing.T) {
			p, ok := Lookup(tt.slug)
			if !ok {
				t.Fatalf("Lookup(%q) not found", tt.slug)
			}
			if p.DisplayName != tt.displayName || p.HeroTitle != tt.heroTitle || p.DefaultQuestion != tt.defaultQuestion {
				t.Errorf("got %q / %q / %q, want %q / %q / %q", p.DisplayName, p.HeroTitle, p.DefaultQuestion, tt.displayName, tt.heroTitle, tt.defaultQuestion)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		in       string
		wantSlug string
		wantOK   bool
	}{
		{"dental", "dental", true},
		{"Dental", "dental", true},
		{"MEDICAL", "medical", true},
		{" Pt ", "pt", true},
		{"Veterinary", "veterinary", true},
		{"vet", "", false},
		{"", "", false},
		{"nursing", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, ok := Lookup(tt.in)
			if ok != tt.wantOK || p.Slug != tt.wantSlug {
				t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.in, p.Slug, ok, tt.wantSlug, tt.wantOK)
			}
			if IsKnown(tt.in) != tt.wantOK {
				t.Errorf("IsKnown(%q) = %v, want %v", tt.in, !tt.wantOK, tt.wantOK)
			}
		})
	}
}

func TestDefaultIsDental(t *testing.T) {
	if Default.Slug != "dental" {
		t.Fatalf("Default.Slug = %q, want dental", Default.Slug)
	}
}

func TestRegistryCannotBeMutatedByCallers(t *testing.T) {
	tests := []struct {
		name string
		get  func() Profession
	}{
		{"All", func() Profession { return All()[0] }},
		{"Lookup", func() Profession { p, _ := Lookup("dental"); return p }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.get()
			p.Tips[0].Title = "changed"
			p.QuestionTags[0] = "changed"
			again, _ := Lookup("dental")
			if again.Tips[0].Title == "changed" || again.QuestionTags[0] == "changed" {
				t.Fatal("mutating a returned profession changed the registry")
			}
		})
	}
}
