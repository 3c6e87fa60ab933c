// Package spelling keeps Whitecoat in one voice: US English in every text a
// student reads. It holds the one list of UK spellings, each with the US
// form to use; spelling_test.go runs it over the question bank, content/,
// the Go server's strings and the web app's sources, so that CI fails on a
// UK form.
package spelling

import (
	"regexp"
	"strings"
)

// usForms maps each UK form, lower case, to its US form. Inflections are
// listed by the loops in init, so that a stem is declared once.
var usForms = map[string]string{
	// -ence nouns, -mme, -ogue, -ll-, and one-offs.
	"licence": "license", "licences": "licenses",
	"defence": "defense", "defences": "defenses",
	"offence": "offense", "offences": "offenses",
	"pretence":  "pretense",
	"programme": "program", "programmes": "programs",
	"catalogue": "catalog", "catalogues": "catalogs", "catalogued": "cataloged",
	"analogue": "analog",
	"enrol":    "enroll", "enrols": "enrolls", "enrolment": "enrollment", "enrolments": "enrollments",
	"fulfil": "fulfill", "fulfils": "fulfills", "fulfilment": "fulfillment",
	"instalment": "installment", "instalments": "installments",
	"skilful": "skillful", "skilfully": "skillfully",
	"wilful": "willful", "wilfully": "willfully",
	"judgement": "judgment", "judgements": "judgments", "judgemental": "judgmental",
	"acknowledgement": "acknowledgment", "acknowledgements": "acknowledgments",
	"ageing":     "aging",
	"wellbeing":  "well-being",
	"speciality": "specialty", "specialities": "specialties",
	"enquire": "inquire", "enquires": "inquires", "enquired": "inquired", "enquiring": "inquiring",
	"enquiry": "inquiry", "enquiries": "inquiries",
	"grey": "gray",
	"tyre": "tire", "tyres": "tires",
	"cheque": "check", "cheques": "checks",
	"jewellery": "jewelry",
	"aluminium": "aluminum",
	"sceptical": "skeptical", "sceptic": "skeptic", "scepticism": "skepticism",
	"mould": "mold", "mouldy": "moldy",
	"plough":  "plow",
	"draught": "draft",
	"pyjamas": "pajamas",
	"maths":   "math",
	"mum":     "mom", "mums": "moms",
	"whilst":   "while",
	"amongst":  "among",
	"learnt":   "learned",
	"spelt":    "spelled",
	"artefact": "artifact", "artefacts": "artifacts",
	"orientated": "oriented",
	"focussed":   "focused", "focussing": "focusing",
	"marvellous": "marvelous",
	"cosy":       "cozy",
	// Medicine.
	"anaesthesia": "anesthesia", "anaesthetic": "anesthetic", "anaesthetics": "anesthetics",
	"anaesthetist": "anesthesiologist", "anaesthetists": "anesthesiologists",
	"anaesthetised": "anesthetized", "anaesthetise": "anesthetize",
	"paediatric": "pediatric", "paediatrics": "pediatrics", "paediatrician": "pediatrician", "paediatricians": "pediatricians",
	"orthopaedic": "orthopedic", "orthopaedics": "orthopedics",
	"gynaecology": "gynecology", "gynaecologist": "gynecologist", "gynaecological": "gynecological",
	"haemorrhage": "hemorrhage", "haemoglobin": "hemoglobin", "haematology": "hematology", "haematoma": "hematoma",
	"haemophilia": "hemophilia",
	"oedema":      "edema",
	"oesophagus":  "esophagus", "oesophageal": "esophageal",
	"oestrogen": "estrogen",
	"foetus":    "fetus", "foetal": "fetal",
	"diarrhoea": "diarrhea",
	"leukaemia": "leukemia",
	"anaemia":   "anemia", "anaemic": "anemic",
	"caesarean": "cesarean",
	"faeces":    "feces",
	"manoeuvre": "maneuver", "manoeuvres": "maneuvers",
	"tumour": "tumor", "tumours": "tumors",
	"theatre": "theater", "theatres": "theaters",
}

func init() {
	// -ise verbs and their nouns: recognise, recognised, recognition stays.
	for _, stem := range []string{
		"anonym", "apolog", "author", "capital", "categor", "character", "critic", "custom", "emphas",
		"euthan", "familiar", "final", "general", "hospital", "human", "hypothes", "immun", "internal",
		"item", "jeopard", "legal", "maxim", "memor", "minim", "mobil", "neutral", "normal", "optim",
		"organ", "patron", "penal", "personal", "priorit", "rational", "real", "recogn", "sanit",
		"scrutin", "social", "special", "stabil", "standard", "summar", "sympath", "trivial", "util",
		"verbal", "visual", "vocal", "token", "canonical", "stigmat", "traumat", "sensit",
	} {
		for _, end := range []string{"e", "ed", "es", "ing", "ation", "ations", "er", "ers", "able"} {
			for _, pre := range []string{"", "un", "re", "dis", "de"} {
				usForms[pre+stem+"is"+end] = pre + stem + "iz" + end
			}
		}
	}
	// -yse verbs; "analyses" is also the plural of analysis, so it stays.
	for _, stem := range []string{"analy", "paraly", "cataly"} {
		for _, end := range []string{"e", "ed", "ing", "er", "ers"} {
			usForms[stem+"s"+end] = stem + "z" + end
		}
	}
	usForms["paralyses"] = "paralyzes"
	// -our words.
	for _, stem := range []string{
		"behavio", "colo", "favo", "hono", "neighbo", "humo", "labo", "rumo", "endeavo", "flavo", "odo",
		"vigo", "harbo", "armo", "savo", "parlo", "clamo", "vapo", "ardo", "splendo", "rigo", "valo",
	} {
		for _, end := range []string{"ur", "urs", "ured", "uring", "urable", "urably", "urful", "urite", "urites",
			"ural", "urally", "urist", "urists", "urhood", "urhoods", "urless", "urism"} {
			usForms[stem+end] = stem + strings.TrimPrefix(end, "u")
		}
		for _, pre := range []string{"dis", "mis", "un"} {
			for _, end := range []string{"ur", "urs", "ured", "urable"} {
				usForms[pre+stem+end] = pre + stem + strings.TrimPrefix(end, "u")
			}
		}
	}
	// -re nouns.
	for _, stem := range []string{"cent", "fib", "lit", "met", "millimet", "centimet", "kilomet", "calib", "spect", "lust", "somb", "meag", "sab"} {
		usForms[stem+"re"] = stem + "er"
		usForms[stem+"res"] = stem + "ers"
	}
	usForms["centred"] = "centered"
	usForms["centring"] = "centering"
	// Doubled l before -ed, -ing, -er.
	for _, stem := range []string{"label", "travel", "model", "cancel", "counsel", "level", "fuel", "signal", "total", "dial", "channel", "tunnel", "marshal", "pencil", "shovel", "quarrel", "tranquil"} {
		for _, end := range []string{"ed", "ing", "er", "ers", "or", "ors"} {
			usForms[stem+"l"+end] = stem + end
		}
	}
	// practise is the verb in UK English; US English spells the verb like
	// the noun.
	for _, end := range []string{"e", "es", "ed", "ing"} {
		usForms["practis"+end] = "practic" + end
	}
	usForms["practiser"] = "practicer"
}

// ukWord matches any word that could be a UK form: the map has the last say.
var ukWord = regexp.MustCompile(`(?i)\b[a-z][a-z'-]*[a-z]\b`)

// A Hit is one UK form in a text.
type Hit struct {
	Offset int    // byte offset in the text
	UK     string // as written, without a possessive 's
	US     string // lower case, with the possessive if any
}

// Find returns the UK forms in text, in order.
func Find(text string) []Hit {
	var hits []Hit
	for _, loc := range ukWord.FindAllStringIndex(text, -1) {
		w := text[loc[0]:loc[1]]
		// Hyphenated words are checked part by part ("patient-centred").
		off := loc[0]
		for part := range strings.SplitSeq(w, "-") {
			word, possessive := strings.CutSuffix(part, "'s")
			if us, ok := usForms[strings.ToLower(word)]; ok {
				if possessive {
					us += "'s"
				}
				hits = append(hits, Hit{Offset: off, UK: word, US: us})
			}
			off += len(part) + 1
		}
	}
	return hits
}
