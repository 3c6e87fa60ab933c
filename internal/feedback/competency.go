package feedback

import "github.com/danielgtaylor/huma/v2"

// Competency is one of the AAMC-style core competencies admissions
// interviews probe. An answer is tagged with the ones it shows, so that the
// progress views can say which a student has demonstrated and which not yet.
type Competency string

const (
	CompetencyEthics           Competency = "ethical-responsibility"
	CompetencyEmpathy          Competency = "empathy-compassion"
	CompetencyTeamwork         Competency = "teamwork"
	CompetencyCommunication    Competency = "oral-communication"
	CompetencyReliability      Competency = "reliability"
	CompetencyResilience       Competency = "resilience-adaptability"
	CompetencyService          Competency = "service-orientation"
	CompetencyCulturalHumility Competency = "cultural-humility"
	CompetencyCriticalThinking Competency = "critical-thinking"
)

// Competencies lists every competency in the order the UI shows them.
var Competencies = []Competency{CompetencyEthics, CompetencyEmpathy, CompetencyTeamwork, CompetencyCommunication,
	CompetencyReliability, CompetencyResilience, CompetencyService, CompetencyCulturalHumility, CompetencyCriticalThinking}

// TransformSchema publishes the competencies, wherever one appears, as
// the contract's enum.
func (Competency) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Enum = EnumOf(Competencies)
	return s
}

// EnumOf is a string enumeration as the contract lists it. The package
// keeps to huma's types rather than httpx's helpers, which would tie the
// scoring engine to the web server's packages.
func EnumOf[T ~string](values []T) []any {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	return enum
}
