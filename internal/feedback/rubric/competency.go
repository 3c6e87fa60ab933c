package rubric

import (
	"slices"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

var (
	empathyCues = phrases(`empath\w*`, `acknowledg\w*`, `validat\w*`, `(must|would) (be|feel) (scary|frightening|hard|overwhelming|frustrating|upsetting|difficult)`, `that must`,
		`(scared|afraid|frightened|anxious|nervous|terrified|upset|grieving|overwhelmed|embarrassed|ashamed|lonely)`, `reassur\w*`, `comfort\w*`, `compassion\w*`,
		`(his|her|their) (feelings|fears?|worries|concerns)`, `listen(ed|ing)? to (him|her|them|the patient|the owner|the client|what)`, `put myself in`, `(held|hold) (his|her|their) hand`)
	teamCues = phrases(`(my|our|the) (team|group|teammates?|colleagues?|coworkers?|co-workers?|lab partners?|classmates)`, `together`, `collaborat\w*`, `each other`, `everyone's`,
		`(delegat|divid|split|shar)\w* (the )?(work|tasks?|roles?|responsibilit\w*)`, `care team`, `(nurses?|techs?|hygienists?|assistants?|physicians?|pharmacists?) and (I|me)`)
	communicationCues = phrases(`plain (language|words|english)`, `simple (terms|words|language)`, `jargon`, `teach[- ]back`, `explain\w*`, `(asked|ask) (him|her|them) (what|how|to repeat)`,
		`open[- ]ended`, `interpreter`, `translat\w*`, `(drew|draw|drawing) (a|him|her|them)`, `diagram`, `eye level`, `check(ed)? (that|whether|if) (he|she|they) understood`)
	reliabilityCues = phrases(`made sure`, `follow(ed|ing)?[- ]up`, `double[- ]check\w*`, `every (week|day|shift|morning|saturday|sunday|month)`, `on time`, `(kept|keep) (my|our) (word|promise|commitment)`,
		`consistent(ly)?`, `for (two|three|four|five|six|\d+) (years|semesters|summers)`, `never missed`, `responsib(le|ility) for`, `(I|we) (documented|logged|tracked|recorded)`, `checklist`)
	resilienceCues = phrases(`fail(ed|ure)?`, `setback`, `struggl\w*`, `(tried|try) again`, `retook`, `(adapt|adjust)\w*`, `bounced back`, `kept going`, `changed my (approach|plan|study|habits)`,
		`rejected`, `didn't (get|make|pass)`, `(overc[oa]me|persever\w*|persist\w*)`, `(hard|difficult|tough) (time|year|semester)`, `I (reali[sz]ed|learned) (that )?I (needed|had) to`)
	serviceCues = phrases(`volunteer\w*`, `underserved`, `free clinic`, `(give|giving) back`, `serv(e|ing|ice) (the|my|our|patients|people|communit\w*)`, `food bank`, `shelter`, `homeless`,
		`(rural|low-income|uninsured|vulnerable) (patients|families|communit\w*|people|areas?|clients)`, `mission trip`, `outreach`, `access to care`)
	culturalCues = phrases(`cultur(e|al|es)`, `language barrier`, `interpreter`, `translat\w*`, `(his|her|their) (beliefs|faith|religion|values|traditions?)`, `religio\w*`, `immigra\w*`,
		`(background|experience)s? (different|unlike) (from )?(mine|my own)`, `assum(e|ed|ption|ptions)`, `bias\w*`, `(spanish|mandarin|arabic|vietnamese|hindi|somali|creole|tagalog|korean)`, `humility`)
	criticalCues = phrases(`options?`, `alternatives?`, `weigh(ed|ing)?`, `pros and cons`, `evidence`, `data`, `root cause`, `(figured|found) out (why|what|that)`, `because`, `in order to`,
		`(on|on the) (one|other) hand`, `trade-?offs?`, `(the )?risks? (and|of)`, `hypothes\w*`, `(analy[sz]|investigat)\w*`)
)

// Competencies tags the competencies the answer shows, as competencies
// does, with more red flags — raised by another judge, the model — gating
// the tags as the rubric's own do.
func (a *Assessment) Competencies(js []feedback.Judged, more ...feedback.FlagKey) []feedback.Competency {
	tagger := *a
	tagger.flags = slices.Clone(a.flags)
	for _, k := range more {
		if !tagger.HasFlag(k) {
			tagger.flags = append(tagger.flags, flagHit{key: k})
		}
	}
	return tagger.competencies(js)
}

// competencies tags the competencies the answer shows. A competency needs
// words for it in the answer and an answer of at least adequate quality;
// ethics and empathy are never credited to an answer with a red flag that
// contradicts them.
func (a *Assessment) competencies(js []feedback.Judged) []feedback.Competency {
	out := []feedback.Competency{}
	if a.words < feedback.OneLinerWords || a.offTopic() {
		return out
	}
	f := map[feedback.CriterionKey]float64{}
	for _, j := range js {
		f[j.Criterion.Key] = j.Fraction
	}
	count := func(c *cues) int { return distinct(a.t.find(c, true)) }
	flagged := len(a.flags) > 0
	add := func(c feedback.Competency, ok bool) {
		if ok && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	add(feedback.CompetencyEthics, !flagged && f[feedback.CriterionJudgement] >= 0.6 && (a.qt == feedback.TypeEthical || count(ownershipCues) > 0))
	add(feedback.CompetencyEmpathy, !a.HasFlag(feedback.FlagContempt, feedback.FlagCoercion, feedback.FlagOverride) && count(empathyCues) >= 2)
	add(feedback.CompetencyTeamwork, !a.HasFlag(feedback.FlagBlame) && (count(teamCues) >= 2 && (a.qt == feedback.TypeTeamwork || a.qt == feedback.TypeLeadership) || count(teamCues) >= 3))
	add(feedback.CompetencyCommunication, f[feedback.CriterionStructure] >= 0.6 && (a.qt == feedback.TypeCommunication || count(communicationCues) >= 2))
	add(feedback.CompetencyReliability, count(reliabilityCues) >= 2)
	add(feedback.CompetencyResilience, count(resilienceCues) >= 2 && distinct(a.reflect) > 0)
	add(feedback.CompetencyService, count(serviceCues) >= 2)
	add(feedback.CompetencyCulturalHumility, count(culturalCues) >= 2)
	add(feedback.CompetencyCriticalThinking, count(criticalCues) >= 3 && f[feedback.CriterionJudgement] >= 0.6)
	slices.SortFunc(out, func(x, y feedback.Competency) int {
		return slices.Index(feedback.Competencies, x) - slices.Index(feedback.Competencies, y)
	})
	return out
}

// ownershipCues are the words of someone taking responsibility: what
// behavioural answers show ethical responsibility with.
var ownershipCues = phrases(`(I|we) (admitted|owned up|took responsibility|apologi[sz]ed|told (my|the) (supervisor|manager|pharmacist|dentist|attending|instructor|professor|preceptor|teacher|coach))`,
	`(my|it was my) (mistake|error|fault)`, `I (reported|disclosed|spoke up|corrected)`, `(honest|honesty|integrity)`)
