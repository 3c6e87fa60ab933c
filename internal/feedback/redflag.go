package feedback

import "github.com/danielgtaylor/huma/v2"

// FlagKey names a red flag: something admissions interviewers treat as
// disqualifying however well the rest of the answer is told.
type FlagKey string

const (
	FlagOverride             FlagKey = "override-consent"
	FlagDeception            FlagKey = "deception"
	FlagFalsifiedRecords     FlagKey = "falsified-records"
	FlagCoercion             FlagKey = "coercion"
	FlagConfidentiality      FlagKey = "confidentiality"
	FlagContempt             FlagKey = "contempt"
	FlagBlame                FlagKey = "blame"
	FlagToleratingDishonesty FlagKey = "tolerating-dishonesty"
	FlagMoneyMotive          FlagKey = "money-motive"
	FlagAchievementList      FlagKey = "achievement-list"
	FlagDisguisedStrength    FlagKey = "disguised-strength"
	FlagDifferentQuestion    FlagKey = "different-question"
	FlagAddressesScorer      FlagKey = "addresses-scorer"
	// FlagQuestionTrap: the answer walks into one of its question's own
	// traps (Input.Traps); the red flag names which.
	FlagQuestionTrap FlagKey = "question-trap"
)

// FlagKeys lists every red flag, in the order the UI shows them.
var FlagKeys = []FlagKey{FlagOverride, FlagDeception, FlagFalsifiedRecords, FlagCoercion, FlagConfidentiality, FlagContempt, FlagBlame,
	FlagToleratingDishonesty, FlagMoneyMotive, FlagAchievementList, FlagDisguisedStrength, FlagDifferentQuestion, FlagAddressesScorer, FlagQuestionTrap}

// RedFlag is one red flag raised by an answer: the words that raised it,
// why an interviewer reacts badly, and what a strong answer does instead.
type RedFlag struct {
	Key     FlagKey `json:"key"`
	Name    string  `json:"name"`
	Quote   string  `json:"quote"`
	Why     string  `json:"why"`
	Instead string  `json:"instead"`
}

// TransformSchema publishes the flag keys.
func (RedFlag) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Properties["key"].Enum = EnumOf(FlagKeys)
	return s
}
