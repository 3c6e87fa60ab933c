package feedback

import "encoding/json"

// storedReply is the scores, words and evidence of stored Feedback as
// written, before validation: scores are raw so that a non-numeric one
// becomes 0 rather than failing the whole record (spec). It was the LLM
// engine's reply until the model judged criteria levels instead of scores.
type storedReply struct {
	OverallScore  json.RawMessage            `json:"overallScore"`
	SectionScores map[string]json.RawMessage `json:"sectionScores"`
	Summary       string                     `json:"summary"`
	Suggestions   []string                   `json:"suggestions"`
	Evidence      []Evidence                 `json:"evidence"`
}
