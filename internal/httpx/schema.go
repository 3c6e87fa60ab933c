package httpx

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/store"
)

// A limit or enumeration is declared once, as a Go constant that the
// service checks, and published from there into the OpenAPI contract by a
// type's TransformSchema method (huma.SchemaTransformer). Huma then
// validates requests against it, and the web reads it from the generated
// contract: no second literal in a struct tag or in TypeScript.

// SetMaxLength publishes a string property's longest length in runes.
func SetMaxLength(s *huma.Schema, property string, n int) {
	s.Properties[property].MaxLength = &n
}

// SetRange publishes an integer property's inclusive bounds.
func SetRange(s *huma.Schema, property string, minimum, maximum int) {
	lo, hi := float64(minimum), float64(maximum)
	s.Properties[property].Minimum, s.Properties[property].Maximum = &lo, &hi
}

// SetMaxItems publishes an array property's largest length.
func SetMaxItems(s *huma.Schema, property string, n int) {
	s.Properties[property].MaxItems = &n
}

// SetEnum publishes the values a string property may take.
func SetEnum[T ~string](s *huma.Schema, property string, values []T) {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	s.Properties[property].Enum = enum
}

// PageNumber is a 1-based page of a paged list, bounded by store.MaxPage
// in the contract.
type PageNumber int

// TransformSchema publishes the bounds.
func (PageNumber) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	lo, hi := 1.0, float64(store.MaxPage)
	s.Minimum, s.Maximum, s.Default = &lo, &hi, 1
	return s
}
