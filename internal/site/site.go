// Package site is the public site's words: the resources page, the three
// guides, about, privacy and terms, and the downloadable PDFs. The words
// live as Markdown in content/ (one file per page and profession); this
// package renders them per profession with the operator's facts, serves
// them to the web app, puts each public page's title, description and text
// into the HTML a crawler or a link preview receives, and makes the PDFs.
package site

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/question"
)

// PageKey names a public page whose words live in content/.
type PageKey string

const (
	PagePricing        PageKey = "pricing"
	PageResources      PageKey = "resources"
	PageAbout          PageKey = "about"
	PagePrivacy        PageKey = "privacy"
	PageTerms          PageKey = "terms"
	GuideEthics        PageKey = "ethics"
	GuideCommunication PageKey = "communication"
	GuidePitfalls      PageKey = "pitfalls"
)

// PageKeys lists every page in the order the sitemap gives them.
var PageKeys = []PageKey{PagePricing, PageResources, GuideEthics, GuideCommunication, GuidePitfalls, PageAbout, PagePrivacy, PageTerms}

// guide says what a guide's closing button offers: the practice its
// reader is ready for, as a focus the setup page preselects.
type guide struct {
	label string
	focus question.Subtag
}

// guides are the pages that live under /{profession}/resources/ and end
// with a button to practise what they teach.
var guides = map[PageKey]guide{
	GuideEthics:        {"Practice an ethics scenario", question.Ethical},
	GuideCommunication: {"Practice a communication scenario", question.Communication},
	GuidePitfalls:      {"Practice avoiding pitfalls", question.Behavioral},
}

// TransformSchema publishes the page keys as the contract's enum.
func (PageKey) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = enum(PageKeys)
	return s
}

// TransformSchema publishes the download keys as the contract's enum.
func (DownloadKey) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = enum(DownloadKeys)
	return s
}

func enum[T ~string](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// IsGuide reports whether k is one of the three guides.
func (k PageKey) IsGuide() bool { _, ok := guides[k]; return ok }

// Path is where the page lives for the profession with slug.
func (k PageKey) Path(slug string) string {
	if k.IsGuide() {
		return "/" + slug + "/resources/" + string(k)
	}
	return "/" + slug + "/" + string(k)
}

// source is the Markdown file with the page's general words.
func (k PageKey) source() string {
	if k.IsGuide() {
		return "guides/" + string(k) + ".md"
	}
	return "pages/" + string(k) + ".md"
}

// part is the optional file with one profession's own section.
func (k PageKey) part(slug string) string {
	if k.IsGuide() {
		return "guides/" + string(k) + "/" + slug + ".md"
	}
	return ""
}

// DownloadKey names one of the downloadable PDFs.
type DownloadKey string

const (
	DownloadInterviewTips DownloadKey = "interview-tips"
	DownloadChecklist     DownloadKey = "interview-day-checklist"
	DownloadThankYou      DownloadKey = "thank-you-emails"
)

// DownloadKeys lists the PDFs in the order the resources page shows them.
var DownloadKeys = []DownloadKey{DownloadInterviewTips, DownloadChecklist, DownloadThankYou}

func (k DownloadKey) source() string          { return "downloads/" + string(k) + ".md" }
func (k DownloadKey) part(slug string) string { return "downloads/" + string(k) + "/" + slug + ".md" }

// Path is the PDF's address: the general edition without a profession,
// the profession's own (its section added where it has one) with one.
func (k DownloadKey) Path(slug string) string {
	if slug == "" {
		return "/public/resources/" + string(k) + ".pdf"
	}
	return "/public/resources/" + slug + "/" + string(k) + ".pdf"
}

// FileName is the name a saved copy gets.
func (k DownloadKey) FileName(slug string) string {
	if slug == "" {
		return "whitecoat-" + string(k) + ".pdf"
	}
	return "whitecoat-" + slug + "-" + string(k) + ".pdf"
}

// Facts are what the words say about the operator and the product. Every
// number the product enforces comes from the Go constant that enforces
// it, and every operator fact from configuration; content/ names them as
// template fields ({{.SupportEmail}}), never as literals.
type Facts struct {
	Company       string `json:"company" doc:"Name of the operator"`
	SupportEmail  string `json:"supportEmail" doc:"Where students write for help"`
	ContactEmail  string `json:"contactEmail" doc:"General contact address"`
	PrivacyEmail  string `json:"privacyEmail" doc:"Where privacy requests go"`
	GoverningLaw  string `json:"governingLaw" doc:"The law that governs the terms"`
	SiteURL       string `json:"siteUrl" doc:"The site's public address"`
	EffectiveDate string `json:"effectiveDate" doc:"When the privacy policy and terms took effect"`
	TrialDays     int    `json:"trialDays"`
	FreeSessions  int    `json:"freeSessions"`
	PassPrice     string `json:"passPrice" doc:"Price of the Premium pass, formatted"`
	// PassPriceShort is the price as the pricing page's plan states it.
	PassPriceShort string `json:"passPriceShort" doc:"Price of the Premium pass without cents when they are .00"`
	PassDays       int    `json:"passDays"`
	RefundDays     int    `json:"refundDays"`
	MinimumAge     int    `json:"minimumAge"`
	AnswerMinutes  int    `json:"answerMinutes" doc:"Longest recorded answer, in minutes"`
	// SpeechProvider and FeedbackProvider name the host of the
	// OpenAI-compatible service an operator configured for transcription
	// or feedback; empty when the engine runs on the server itself.
	SpeechProvider   string `json:"speechProvider"`
	FeedbackProvider string `json:"feedbackProvider"`
	// How long a sign-in lasts: ended after SignInIdleDays without
	// activity, and after SignInMaxDays however active.
	SignInIdleDays int `json:"signInIdleDays"`
	SignInMaxDays  int `json:"signInMaxDays"`
	// DeviceCookieDays is how long a browser remembers that it has signed
	// in to an account (it keeps the owner out of others' lockouts).
	DeviceCookieDays int `json:"deviceCookieDays"`
	// RecordingHours is the longest a recording that was never
	// transcribed waits before it is deleted.
	RecordingHours int `json:"recordingHours"`
}

// EffectiveDate is the date the privacy policy and the terms took effect
// (spec §2).
const EffectiveDate = "September 7, 2025"

// Heading is one section of a page, for its table of contents.
type Heading struct {
	ID    string `json:"id"`
	Text  string `json:"text"`
	Level int    `json:"level" minimum:"2" maximum:"3"`
}

// Practice is a guide's closing button: its label and where it leads.
type Practice struct {
	Label string `json:"label"`
	// Path opens the profession's setup with the guide's focus chosen.
	Path  string          `json:"path"`
	Focus question.Subtag `json:"focus"`
}

// FAQItem is one of the pricing page's questions and its answer.
type FAQItem struct {
	Question string `json:"question"`
	// AnswerHTML is trusted HTML, rendered like Page.HTML.
	AnswerHTML string `json:"answerHtml"`
	// Answer is the answer as plain text, for structured data.
	Answer string `json:"answer"`
}

// GuideCard is a guide as the resources page lists it.
type GuideCard struct {
	Key     PageKey `json:"key"`
	Title   string  `json:"title"`
	Summary string  `json:"summary"`
	Path    string  `json:"path"`
}

// DownloadCard is a PDF as the resources page lists it.
type DownloadCard struct {
	Key      DownloadKey `json:"key"`
	Title    string      `json:"title"`
	Summary  string      `json:"summary"`
	Path     string      `json:"path"`
	FileName string      `json:"fileName"`
	Pages    int         `json:"pages" doc:"Number of pages in the PDF"`
	Bytes    int         `json:"bytes" doc:"Size of the PDF"`
	Size     string      `json:"size" doc:"The PDF's pages and size as the resources page states them" example:"PDF, 2 pages, 41 KB"`
}

// Page is one public page rendered for one profession.
type Page struct {
	Key         PageKey `json:"key"`
	Profession  string  `json:"profession"`
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	// HTML is the body rendered from content/ by this server: trusted,
	// with no raw HTML from the Markdown.
	HTML     string    `json:"html"`
	Headings []Heading `json:"headings"`
	// Practice is set on guides.
	Practice *Practice `json:"practice,omitempty"`
	// FAQ is set on the pricing page: its sections as questions.
	FAQ []FAQItem `json:"faq,omitempty"`
	// Guides and Downloads are set on the resources page.
	Guides    []GuideCard    `json:"guides,omitempty"`
	Downloads []DownloadCard `json:"downloads,omitempty"`
}
