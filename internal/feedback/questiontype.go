package feedback

import (
	"regexp"
	"strings"
)

// questionType decides which structure an answer is judged against.
type questionType string

const (
	typeBehavioral    questionType = "behavioral"
	typeTeamwork      questionType = "teamwork"
	typeLeadership    questionType = "leadership"
	typeEthical       questionType = "ethical"
	typeCommunication questionType = "communication"
	typeTellMe        questionType = "tell-me-about-yourself"
	typeWhyProfession questionType = "why-profession"
	typeWhySchool     questionType = "why-school"
	typeGeneral       questionType = "general"
)

// label is how the type is named to the student and to the LLM, with its
// article.
func (t questionType) label() string {
	switch t {
	case typeBehavioral:
		return "a behavioral (past experience) question"
	case typeTeamwork:
		return "a teamwork question"
	case typeLeadership:
		return "a leadership question"
	case typeEthical:
		return "an ethical scenario"
	case typeCommunication:
		return "a communication question"
	case typeTellMe:
		return `the "tell me about yourself" question`
	case typeWhyProfession:
		return `the "why this profession" question`
	case typeWhySchool:
		return `the "why our school" question`
	}
	return "a general interview question"
}

// inferRules are tried in order: the Big 3 phrasings first because "tell me
// about yourself" would otherwise look behavioural, and teamwork/leadership
// before the generic "tell me about a time".
var inferRules = []struct {
	t  questionType
	re *regexp.Regexp
}{
	{typeTellMe, regexp.MustCompile(`(?i)tell (me|us) about yourself|introduce yourself|walk (me|us) through your (background|journey|application)|describe yourself`)},
	{typeWhySchool, regexp.MustCompile(`(?i)why (our|this) (school|program|programme|university|college)|why (do you want to|would you) (attend|join|come to|study at|choose) (our|this)|why here\b|what (draws|attracts|drew|attracted) you to (our|this) (school|program|programme)`)},
	{typeWhyProfession, regexp.MustCompile(`(?i)why (do you want to|did you choose to|would you like to|have you chosen to) (be(come)?|pursue|study|go into)|why (dentistry|medicine|pharmacy|physical therapy|occupational therapy|veterinary|vet med|pa\b|physician assistant|a career in)|what (made|makes|inspired|draws|drew|led) you (to|into) (dentistry|medicine|pharmacy|physical therapy|occupational therapy|veterinary|become|pursue|want)|why not (medicine|nursing|dentistry|pharmacy)|why (pa|physician assistant) (and|instead|rather|over)`)},
	{typeTeamwork, regexp.MustCompile(`(?i)\bteam|group (project|work)|\bcolleague|co-?worker|classmate.*(conflict|disagree)|work(ed)? with others`)},
	{typeLeadership, regexp.MustCompile(`(?i)\blead(er|ership)?\b|\bled\b|in charge`)},
	{typeCommunication, regexp.MustCompile(`(?i)communicat|break(ing)? (bad|difficult) news|deliver(ing)? (bad|difficult) news|explain .* to (a|the) (patient|client|owner|child)|(angry|upset|frustrated|anxious|difficult) (patient|client|owner|parent)|\blisten`)},
	{typeEthical, regexp.MustCompile(`(?i)ethic|dilemma|what (would|should) you do|how would you (handle|respond)|\bconfidential|\bconsent|refuses?|euthanasia|cheat|impaired|\bshould (a|the|you)`)},
	{typeBehavioral, regexp.MustCompile(`(?i)tell (me|us) about a (time|situation|moment)|describe a (time|situation|challenge|moment)|give (me |us )?an example|\bmistake|\bfail|challeng|conflict|weakness|strength|overcame|overcome|difficult`)},
}

var scenario = regexp.MustCompile(`(?i)what would you do|how would you (handle|respond|proceed|approach)`)

func classify(in Input) questionType {
	switch in.Big3 {
	case Big3TellMeAboutYourself:
		return typeTellMe
	case Big3WhyProfession:
		return typeWhyProfession
	case Big3WhySchool:
		return typeWhySchool
	}
	switch strings.ToLower(strings.TrimSpace(in.Subtag)) {
	case "ethical":
		return typeEthical
	case "behavioral", "behavioural":
		// "…you realise you dispensed the wrong dose. What would you do?"
		// is a scenario to reason through, not a past to tell.
		if scenario.MatchString(in.Question) {
			return typeEthical
		}
		return typeBehavioral
	case "teamwork":
		return typeTeamwork
	case "leadership":
		return typeLeadership
	case "communication":
		return typeCommunication
	}
	for _, r := range inferRules {
		if r.re.MatchString(in.Question) {
			return r.t
		}
	}
	return typeGeneral
}
