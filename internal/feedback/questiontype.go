package feedback

import (
	"regexp"
	"strings"
)

// QuestionType decides which structure an answer is judged against.
type QuestionType string

const (
	TypeBehavioral    QuestionType = "behavioral"
	TypeTeamwork      QuestionType = "teamwork"
	TypeLeadership    QuestionType = "leadership"
	TypeEthical       QuestionType = "ethical"
	TypeCommunication QuestionType = "communication"
	TypeTellMe        QuestionType = "tell-me-about-yourself"
	TypeWhyProfession QuestionType = "why-profession"
	TypeWhySchool     QuestionType = "why-school"
	TypeGeneral       QuestionType = "general"
)

// Label is how the type is named to the student and to the LLM, with its
// article.
func (t QuestionType) Label() string {
	switch t {
	case TypeBehavioral:
		return "a behavioral (past experience) question"
	case TypeTeamwork:
		return "a teamwork question"
	case TypeLeadership:
		return "a leadership question"
	case TypeEthical:
		return "an ethical scenario"
	case TypeCommunication:
		return "a communication question"
	case TypeTellMe:
		return `the "tell me about yourself" question`
	case TypeWhyProfession:
		return `the "why this profession" question`
	case TypeWhySchool:
		return `the "why our school" question`
	}
	return "a general interview question"
}

// inferRules are tried in order: the Big 3 phrasings first because "tell me
// about yourself" would otherwise look behavioural, and teamwork/leadership
// before the generic "tell me about a time".
var inferRules = []struct {
	t  QuestionType
	re *regexp.Regexp
}{
	{TypeTellMe, regexp.MustCompile(`(?i)tell (me|us) about yourself|introduce yourself|walk (me|us) through your (background|journey|application)|describe yourself`)},
	{TypeWhySchool, regexp.MustCompile(`(?i)why (our|this) (school|program|programme|university|college)|why (do you want to|would you) (attend|join|come to|study at|choose) (our|this)|why here\b|what (draws|attracts|drew|attracted) you to (our|this) (school|program|programme)`)},
	{TypeWhyProfession, regexp.MustCompile(`(?i)why (do you want to|did you choose to|would you like to|have you chosen to) (be(come)?|pursue|study|go into)|why (dentistry|medicine|pharmacy|physical therapy|occupational therapy|veterinary|vet med|pa\b|physician assistant|a career in)|what (made|makes|inspired|draws|drew|led) you (to|into) (dentistry|medicine|pharmacy|physical therapy|occupational therapy|veterinary|become|pursue|want)|why not (medicine|nursing|dentistry|pharmacy)|why (pa|physician assistant) (and|instead|rather|over)`)},
	{TypeTeamwork, regexp.MustCompile(`(?i)\bteam|group (project|work)|\bcolleague|co-?worker|classmate.*(conflict|disagree)|work(ed)? with others`)},
	{TypeLeadership, regexp.MustCompile(`(?i)\blead(er|ership)?\b|\bled\b|in charge`)},
	{TypeCommunication, regexp.MustCompile(`(?i)communicat|break(ing)? (bad|difficult) news|deliver(ing)? (bad|difficult) news|explain .* to (a|the) (patient|client|owner|child)|(angry|upset|frustrated|anxious|difficult) (patient|client|owner|parent)|\blisten`)},
	{TypeEthical, regexp.MustCompile(`(?i)ethic|dilemma|what (would|should) you do|how would you (handle|respond)|\bconfidential|\bconsent|refuses?|euthanasia|cheat|impaired|\bshould (a|the|you)`)},
	{TypeBehavioral, regexp.MustCompile(`(?i)tell (me|us) about a (time|situation|moment)|describe a (time|situation|challenge|moment)|give (me |us )?an example|\bmistake|\bfail|challeng|conflict|weakness|strength|overcame|overcome|difficult`)},
}

var scenario = regexp.MustCompile(`(?i)what would you do|how would you (handle|respond|proceed|approach)`)

// Classify is the type of question the input answers.
func Classify(in Input) QuestionType {
	switch in.Big3 {
	case Big3TellMeAboutYourself:
		return TypeTellMe
	case Big3WhyProfession:
		return TypeWhyProfession
	case Big3WhySchool:
		return TypeWhySchool
	}
	switch strings.ToLower(strings.TrimSpace(in.Subtag)) {
	case "ethical":
		return TypeEthical
	case "behavioral", "behavioural":
		// "…you realise you dispensed the wrong dose. What would you do?"
		// is a scenario to reason through, not a past to tell.
		if scenario.MatchString(in.Question) {
			return TypeEthical
		}
		return TypeBehavioral
	case "teamwork":
		return TypeTeamwork
	case "leadership":
		return TypeLeadership
	case "communication":
		return TypeCommunication
	}
	for _, r := range inferRules {
		if r.re.MatchString(in.Question) {
			return r.t
		}
	}
	return TypeGeneral
}
