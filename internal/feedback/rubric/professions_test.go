package rubric

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/whitecoat/whitecoat/internal/feedback"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// whyAnswers are realistic answers to each profession's default question,
// written for this test. A profession added to the registry needs one
// here, and words of its own in professionCues.
var whyAnswers = map[string]string{
	"dental": `I want to become a dentist because of Dr. Okafor, whom I shadowed for 150 hours at a community dental clinic in Toledo. ` +
		`I watched her spend ten minutes calming a teenager who had avoided care for years, numb him slowly, and then fill two cavities while explaining every step. ` +
		`He came back six months later and asked her about sealants for his little sister. That showed me that dentistry is trust as much as technique, ` +
		`and I learned that prevention changes lives. I want to be that dentist for anxious patients in my hometown.`,
	"medical": `I want to become a physician because of what I saw as a medical scribe in a county hospital emergency department for two years. ` +
		`One night an attending sat with a frightened farmer, explained his diagnosis of heart failure in plain words, and made a treatment plan he could follow at home. ` +
		`Three weeks later he came back to thank her, with his medications organised in a pill box. I learned that medicine is diagnosis and trust together, ` +
		`and I realised I want to be the doctor who takes that time with patients with chronic illness.`,
	"pt": `I want to become a physical therapist because of the eight months I volunteered in an outpatient rehab clinic in Columbus. ` +
		`I worked with a soccer player recovering from an ACL reconstruction: his therapist measured his range of motion every session, adjusted his home exercise program, ` +
		`and coached him through the weeks when progress stalled. In March he walked in without crutches and in June he was back on the field. ` +
		`I learned that physical therapy is patient education and movement, and I want to help people regain their function and their confidence.`,
	"pa": `I want to become a physician assistant because of my three years as an EMT and a scribe in an urgent care clinic. ` +
		`I worked beside a PA who diagnosed, prescribed and then collaborated with her supervising physician on the hardest cases, and I saw how the team-based model gets patients seen faster. ` +
		`One afternoon she caught a missed diagnosis of sepsis in an elderly patient and sent him to the hospital within the hour. ` +
		`I learned that I value that flexibility to switch specialties and that collaboration, and I want to practise medicine as part of a team in primary care.`,
	"pharmacy": `I want to become a pharmacist because of two years as a pharmacy technician at an independent pharmacy in Dayton. ` +
		`I watched our pharmacist counsel an elderly woman who was taking three medications with a dangerous interaction; she called the prescriber, changed the dose, ` +
		`and set up a weekly pill organiser with her daughter. A month later her refills were on time and her blood pressure was under control. ` +
		`I learned that pharmacy is about adherence and safety as much as drugs, and I want to be the pharmacist patients trust with their questions.`,
	"ot": `I want to become an occupational therapist because of the summer I volunteered on an inpatient stroke rehab unit in Cincinnati. ` +
		`The occupational therapist there worked with Mrs. Hale on dressing and feeding, adapted her kitchen tools, and set her goal as buttoning her own shirt for her granddaughter's wedding. ` +
		`In August she did it, and she told me it felt like independence again. I learned that occupational therapy is about the activities that make a life meaningful, ` +
		`and I want to help patients return to the routines and quality of life they value.`,
	"veterinary": `I want to become a veterinarian because of three years as a kennel assistant and technician at a mixed animal practice in rural Iowa. ` +
		`I watched our vet treat a litter of puppies with parvo, explain the costs honestly to the owner, and work out a payment plan so the family could keep them. ` +
		`On farm calls I saw her vaccinate cattle and talk with farmers about herd health and animal welfare. I learned that veterinary medicine is as much about owners and public health as about animals, ` +
		`and I want to serve rural communities.`,
}

// Every profession in the registry is one the rubric can score: its own
// question, its own profession words, a score that is not zero.
func TestEveryRegisteredProfessionScores(t *testing.T) {
	for _, p := range profession.All() {
		t.Run(p.Slug, func(t *testing.T) {
			answer, ok := whyAnswers[p.Slug]
			if !ok {
				t.Fatalf("no realistic answer for %q: add one to whyAnswers", p.Slug)
			}
			if professionCues[p.Slug] == nil {
				t.Fatalf("the rubric has no profession words for %q", p.Slug)
			}
			if p.Practitioner == "" {
				t.Fatalf("%q names no practitioner", p.Slug)
			}
			fb := score(t, feedback.Input{Profession: p.Slug, Question: p.DefaultQuestion, Big3: feedback.Big3WhyProfession, Transcript: answer,
				Delivery: &feedback.Delivery{DurationSeconds: 70}})
			if fb.OverallScore < 60 || len(fb.RedFlags) > 0 {
				t.Errorf("a realistic answer scored %d with red flags %v", fb.OverallScore, fb.RedFlags)
			}
			fit := evidenceNamed(fb, "Understanding of the profession")
			if fit.Level < 5 || !strings.Contains(fit.Note, p.Practitioner) {
				t.Errorf("understanding of the profession: level %d, note %q; want the %s's own words found", fit.Level, fit.Note, p.Practitioner)
			}
		})
	}
	for slug := range professionCues {
		if !profession.IsKnown(slug) {
			t.Errorf("the rubric has words for %q, which is not a registered profession", slug)
		}
	}
}

func evidenceNamed(fb feedback.Feedback, criterion string) feedback.Evidence {
	for _, e := range fb.Evidence {
		if e.Criterion == criterion && e.Level > 0 {
			return e
		}
	}
	return feedback.Evidence{}
}

// TestPractitionerTakesItsArticle: the texts name the practitioner after
// "a", which an occupational therapist does not take ("a occupational
// therapist" was written).
func TestPractitionerTakesItsArticle(t *testing.T) {
	wrong := regexp.MustCompile(`(?i)\ba [aeiou]\w*`)
	for _, p := range profession.All() {
		for _, answer := range []string{"I like helping people and science.", whyAnswers[p.Slug]} {
			fb := score(t, feedback.Input{Profession: p.Slug, Question: p.DefaultQuestion, Big3: feedback.Big3WhyProfession, Transcript: answer,
				Delivery: &feedback.Delivery{DurationSeconds: 70}})
			text, err := json.Marshal(fb)
			if err != nil {
				t.Fatal(err)
			}
			if m := wrong.FindString(string(text)); m != "" {
				t.Errorf("%s: the feedback says %q", p.Slug, m)
			}
		}
	}
}
