package practice

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
)

// Contract stand-in for the web branch: publishes the limits the web reads
// from the generated contract. Helpers A and B publish the real ones.

// TransformSchema publishes the session config's limits.
func (CreateInput) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetEnum(s, "profession", profession.Slugs())
	httpx.SetRange(s, "questionCount", MinQuestions, MaxQuestions)
	httpx.SetMaxItems(s, "questions", MaxQuestions)
	return s
}

// saveInputBody is the save request's body.
type saveInputBody struct {
	Title string `json:"title" doc:"Empty for the default \"Session {date/time}\"."`
}

// TransformSchema publishes the title's longest length.
func (saveInputBody) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "title", maxTitleLen)
	return s
}
