package rubric

import "github.com/whitecoat/whitecoat/internal/feedback"

// The cue lists below come from general interview-coaching practice (STAR,
// the four principles of biomedical ethics and the six-step ethics answer,
// SPIKES and active listening, the Big 3 advice admissions offices publish).
// They are deliberately broad phrase families, not phrases from any answer set:
// the calibration benchmark in bench/feedback must not be memorised here.

// component is one part of the structure a question type calls for.
type component struct {
	key    string
	name   string // how the summary names it: "the result"
	weight float64
	// need is how many different cues give full credit; fewer give partial.
	need int
	re   *cues
	// firstPerson counts a cue only in a sentence with "I" in it.
	firstPerson bool
	// suggest is shown when the component is missing or thin. {after} becomes
	// a pointer into the answer ("after “…spoke to her”"), {who} the
	// practitioner ("dentist").
	suggest string
}

// structure is what a question type is judged against.
type structure struct {
	components []component
	// ordered types reward telling the parts in their natural order.
	ordered bool
	// content weights: relevance, specificity, reflection, profession.
	weights [4]float64
}

var (
	situationCues = phrases(`when I was`, `while (I was )?(working|volunteering|shadowing|studying|interning)`, `during (my|a|the|our)`,
		`last (summer|year|spring|fall|autumn|winter|semester|month|week)`, `(in|during) my (freshman|sophomore|junior|senior|first|second|third|final|gap) year`,
		`one (day|time|shift|morning|afternoon|evening|night|semester|summer)`, `a (few|couple of) (years|months|weeks) ago`,
		`at (the|my|a) (clinic|hospital|pharmacy|practice|shelter|job|work|lab|school|university|camp|restaurant|store|office|farm|nursing home)`,
		`I (was|worked) (a|an|as)`, `there was (a|an|one)`, `in (19|20)\d\d`, `I remember`, `I once`, `once,? (when|while|during)`,
		`as (a|an) ([\w-]+ ){0,2}(aide|assistant|tech|technician|scribe|volunteer|intern|student|receptionist|cashier|server|tutor|coach|lifeguard|counse?llor|captain|lead|leader|manager|president|mentor|nanny|caregiver)`)
	taskCues = phrases(`my (role|job|task|responsibility|goal|assignment) was`, `I was (responsible|in charge|asked|tasked|supposed|expected)`,
		`I (needed|had) to`, `we (needed|had) to`, `the (goal|challenge|problem|issue|task|deadline) was`, `(it|this|that) was (up to|on) me`,
		`I wanted to (make sure|find|figure)`, `our (goal|task|assignment|deadline) was`)
	// actionCues are things a person does; they count as the applicant's
	// actions only in sentences where the applicant is the subject (see
	// component.firstPerson), so "I knelt down, asked him…, and showed him"
	// counts three actions.
	actionCues = phrases(`decided`, `organi[sz]ed`, `spoke`, `talked`, `asked`, `suggested`, `proposed`, `created`, `set up`, `scheduled`, `reached out`, `met with`,
		`called`, `explained`, `took`, `made`, `started`, `built`, `coordinated`, `delegated`, `divided`, `listened`, `apologi[sz]ed`, `reported`, `sat down`, `offered`,
		`stayed`, `volunteered`, `trained`, `designed`, `implemented`, `changed`, `adjusted`, `researched`, `wrote`, `brought`, `arranged`, `checked`, `followed up`,
		`admitted`, `went back`, `approached`, `encouraged`, `assigned`, `redistributed`, `stepped (in|up)`, `made sure`, `worked with`, `gathered`, `planned`,
		`double-checked`, `owned up`, `practi[cs]ed`, `drafted`, `contacted`, `emailed`, `showed`, `walked`, `found`, `taught`, `rewrote`, `restructured`, `flagged`,
		`paused`, `corrected`, `notified`, `knelt`, `gave`, `sent`, `moved`, `split`, `recruited`, `shared`, `helped`, `visited`, `tried`, `agreed`, `prepared`, `reorgani[sz]ed`,
		`studied`, `joined`, `cut`, `rebooked`, `acknowledged`, `validated`, `reassured`, `comforted`, `translated`, `documented`, `escalated`,
		`told`, `disclosed`, `filed`, `refused`, `raised`, `insisted`, `went to`, `ask`, `explain`, `offer`, `encourage`, `document`, `call`, `refer`, `tell`, `check`, `schedule`, `involve`, `respect`, `suggest`, `listen`)
	resultCues = phrases(`as a result`, `in the end`, `ended up`, `eventually`, `the outcome`, `which led to`, `(this|that|it) (led|resulted) (to|in)`,
		`by the end`, `afterwards?`, `(we|I|she|he|they) (finished|completed|passed|won|recovered|improved|raised|reduced|increased|submitted|delivered|got|earned|received|returned|regained|came back)`,
		`(was|were) able to`, `it worked`, `successfully`, `turned out`, `the next (week|day|month|semester|year|visit|appointment|session)`,
		`\d+ ?percent`, `\d+%`, `(did not|didn't) happen again`, `(thanked|hugged) (me|us)`, `(grade|score|numbers?|rate) (went|improved|rose|dropped)`)
	reflectionCues = phrases(`I (have |'ve )?learn(ed|t)`, `taught me`, `I reali[sz]ed`, `made me (realize|realise|see|understand|appreciate|rethink)`,
		`(it|this|that) (changed|shaped) (how|the way|my)`, `since then`, `from then on`, `looking back`, `in hindsight`, `I now`,
		`now I (always|make sure|try|know|understand|ask|check)`, `(that|this|the) (experience|moment|patient|conversation) (showed|taught|reminded)`,
		`I (came to|began to|started to) (see|understand|appreciate|realize|realise)`, `showed me`, `I would do (it |things )?differently`,
		`next time`, `(moving|going) forward`, `reinforced`, `helped me (see|understand|grow|realize|realise|appreciate)`, `I understood`,
		`the lesson`, `I grew`, `humbl(ed|ing)`, `I appreciate`, `I('ve| have)? (saw|seen|noticed|learned|found) (that|how|what|first-hand)`, `what (I|it) (took|taught) (from|me)`, `I took (away|from)`, `it showed`, `what (changed|got|struck|stayed with|stuck with|surprised|hit|moved) (me|my mind)`, `changed my mind`,
		`(stuck|stayed) with me`, `struck me`, `made me want`, `(that's|that is|that was) (when|what|why) I`, `I('ve| have)? (also )?seen`,
		`what I('d| would) do differently`, `(do|did) (it |things )?differently`, `I (understand|see|know) (why|that|now|how)`, `what I changed`, `(the|a|my) (bigger|biggest|real|main|key|hardest) (lesson|takeaway)`,
		`I('ve| have) taken (that|this|it) into`, `(much|a lot|far) better at`, `(faster|earlier|sooner|differently|more often) now`, `I('ve| have) (gotten|become|grown|been working on)`, `(this|that|it) (really )?matters`, `I carry`)
	reasonCues = phrases(`because`, `since`, `so that`, `in order to`, `the reason`, `which (means|would|protects|respects|keeps)`, `that way`,
		`(this|that) (respects|protects|balances|ensures|keeps|honou?rs)`, `this way`, `weigh(ing)?`, `balanc(e|ing)`, `while (also|still)`,
		// A reason is also a clause of purpose or consequence, whatever it
		// is about: "so she has some control", "otherwise he stops coming".
		`so (that )?(she|he|they|we|you|it|the \w+|her|his|their|nobody|no one|everyone) (can|could|has|have|had|is|are|was|were|would|will|does|doesn't|knows|feels|gets|understands|isn't|aren't|won't|wouldn't|stays|keeps)`,
		`otherwise`, `which (means|meant)`, `given (that|how|her|his|their)`)
	signpostCues = phrases(`first(ly)?`, `second(ly)?`, `then`, `next`, `finally`, `after that`, `as a result`, `in the end`, `overall`,
		`to (sum up|summari[sz]e)`, `(that's|that is|which is) why`, `for example`, `for instance`, `in short`)
)

// starComponents are the behavioural core shared by behavioural, teamwork and
// leadership questions; each type adds what its question is about.
func starComponents(extra ...component) []component {
	cs := []component{
		{key: "situation", name: "the situation", weight: 1, need: 1, re: situationCues,
			suggest: "Open with the situation in one or two sentences: where you were, when, and who was involved, so the interviewer can picture it."},
		{key: "task", name: "your task", weight: 0.7, need: 1, re: taskCues,
			suggest: "Say what was at stake for you {after}: what was your role, and what did you need to achieve?"},
		{key: "action", name: "your actions", weight: 1.2, need: 2, re: actionCues, firstPerson: true,
			suggest: "Spell out what you yourself did {after}, step by step, in the first person (“I asked…”, “I suggested…”) rather than what “we” did."},
		{key: "result", name: "the result", weight: 1, need: 1, re: resultCues,
			suggest: "Add the result {after}: what changed for the people involved, ideally with something you can point to (an outcome, a number, what someone said)."},
		{key: "reflection", name: "what you learned", weight: 0.8, need: 1, re: reflectionCues,
			suggest: "Finish with reflection {after}: what you learned and how you act differently now, tied to working as a {who}."},
	}
	return append(cs, extra...)
}

var structures = map[feedback.QuestionType]structure{
	feedback.TypeBehavioral: {components: starComponents(), ordered: true, weights: [4]float64{0.25, 0.35, 0.25, 0.15}},
	feedback.TypeTeamwork: {components: starComponents(component{
		key: "team", name: "the team's perspective", weight: 0.8, need: 2,
		re: phrases(`(my|our|the) (team|group|teammates?|classmates?|colleagues?|coworkers?|co-workers?|partners?|members)`, `each other`, `everyone('s)?`, `together`,
			`(their|his|her) (perspective|point of view|concerns?|strengths?|side|workload|situation)`, `compromise`, `collaborat\w*`, `(shared|common) goal`, `roles?`),
		suggest: "Show the team, not just you: what did the others need or think, and how did you bring them together {after}?",
	}), ordered: true, weights: [4]float64{0.25, 0.35, 0.25, 0.15}},
	feedback.TypeLeadership: {components: starComponents(component{
		key: "leading", name: "how you led others", weight: 0.8, need: 1,
		re: phrases(`delegat\w*`, `motivat\w*`, `mentor\w*`, `took (the )?(lead|initiative|charge|ownership)`, `president`, `captain`, `leader`, `chair(ed)?`, `coordinator`, `founder`, `founded`,
			`(everyone's|each person's|members'?|their) (strengths|input|ideas|opinions)`, `(team|group|club|committee) members?`, `I led`, `led (a|the|our)`, `in charge`, `volunteers`),
		suggest: "Make the leadership visible {after}: how did you get others moving — delegating, listening to their ideas, keeping them motivated?",
	}), ordered: true, weights: [4]float64{0.25, 0.35, 0.25, 0.15}},
	feedback.TypeEthical: {components: []component{
		{key: "issue", name: "the ethical issue", weight: 1, need: 1,
			re: phrases(`the (main |central |core |key |real |ethical )?(issue|dilemma|conflict|concern|problem|question|tension)`, `(is|are) at stake`, `ethic(al|s|ally)`, `dilemma`,
				`I would (first |initially )?(want to )?(understand|clarify|gather|find out|learn more|ask|get more information)`, `gather (more )?(information|facts)`, `find out (more|why|what)`,
				`more information`, `conflict(s)? (between|with)`, `I'd (first )?(want to )?(understand|clarify|find out|ask)`, `(first|before (anything|acting|deciding)),? I('d| would)`),
			suggest: "Name the dilemma before solving it: say in one sentence what is in conflict, and what you would want to find out first."},
		{key: "stakeholders", name: "the people affected", weight: 0.8, need: 2,
			re: phrases(`(the|my|a|his|her|their) (patients?|family|families|parents?|child|children|son|daughter|colleagues?|classmates?|friends?|team|owners?|clients?|pet|animal|dog|cat|physicians?|doctors?|dentists?|pharmacists?|supervisor|attending|preceptor|professor|instructor|public|community|school|hospital|clinic|other students|partner|spouse|husband|wife)`,
				`stakeholders?`, `everyone involved`, `people affected`, `(his|her|their) (health|safety|wishes|wellbeing|well-being)`,
				`the (practice|office|insurer|insurance company|staff|resident|nurse|nurses|technician|tech|next (clinician|doctor|person|provider))`),
			suggest: "Say who is affected and what each of them needs — the patient first, then family, colleagues, the team or the public."},
		{key: "principles", name: "the principles at stake", weight: 1.2, need: 2,
			re: phrases(`autonomy`, `autonomous`, `beneficence`, `non-?maleficence`, `justice`, `fair(ness)?`, `do no harm`, `harm(ed|ful|ing)?`, `best interests?`, `(patient )?safety`,
				`(informed )?consent`, `confidential(ity)?`, `privacy`, `honest(y)?`, `integrity`, `trust`, `(right|wishes|values|beliefs|choice) (to|of)`, `(their|his|her|patient's|owner's|client's) (right|wishes|values|beliefs|choice|decision)s?`,
				`respect`, `dignity`, `(decision-making )?capacity`, `competen(ce|t)`, `welfare`, `quality of life`, `suffering`, `professionalism`, `accountab\w*`, `equit(y|able)`, `duty`,
				`fraud\w*`, `illegal`, `against the law`, `licen[cs]e`, `(the )?truth`, `accura(te|cy)`, `mislead\w*`, `public health`),
			suggest: "Name the principles in tension — autonomy, beneficence, non-maleficence, justice, honesty, confidentiality — and say how each applies here."},
		{key: "options", name: "the options", weight: 0.8, need: 1,
			re: phrases(`(one|another|other|first|second) options?`, `options`, `alternatively`, `alternatives?`, `I could`, `we could`, `on (the )?one hand`, `on the other hand`,
				`either`, `pros and cons`, `instead`, `compromise`, `middle ground`, `rather than`, `weigh(ing)?`, `one approach`, `another approach`,
				`or (use|go|take|talk|report|ask|call|escalate|offer|refer|suggest)`, `otherwise`, `payment plan`, `discount`, `second opinion`, `referral`,
				`try to (solve|help|find|meet)`, `(suggest|recommend) (a|an|the|that|other|another)`,
				`if (that|this|it|she|he|they|the \w+) (still |just )?(doesn't|didn't|does not|did not|brushed|brushes|refuses|refused|won't|wouldn't|isn't|wasn't|keeps|continues|can't|cannot)`),
			suggest: "Lay out the realistic options {after} — including the tempting wrong one — and what each would mean for the patient, before choosing."},
		{key: "decision", name: "a decision with reasons", weight: 1, need: 2,
			re: phrases(`ultimately`, `I would (then |first |also )?(decide|choose|recommend|respect|support|report|speak|talk|tell|encourage|offer|explain|refer|document|contact|approach|escalate|not|ask|make sure|inform|discuss|sit down|involve)`,
				`I'd (then |first |also )?(decide|choose|recommend|respect|support|report|speak|talk|tell|encourage|offer|explain|refer|approach|ask|make sure|inform|discuss|sit down|involve)`, `my decision`, `the (best|right) (course|option|approach|thing|decision)`, `I would go with`,
				`I (think|believe) (the right|I should|I would)`, `because`, `so that`, `in order to`),
			suggest: "Commit to a decision and give the reason for it {after}: what you would actually do, and which principle makes it right."},
		{key: "followup", name: "follow-up", weight: 0.6, need: 1,
			re: phrases(`follow(ing|ed)?[- ]up`, `check (in|back)`, `afterwards?`, `after that`, `document\w*`, `report\w*`, `escalat\w*`, `supervisor`, `(hospital|school|clinic|pharmacy) polic(y|ies)`, `polic(y|ies)`,
				`ethics (committee|board|consult\w*)`, `compliance`, `hotline`, `(clinic|practice|program|medical|nursing|hospital|pharmacy|rehab) (director|manager|supervisor|owner)`, `revisit`, `keep (an eye|in touch|monitoring)`, `ongoing`, `support (him|her|them)`, `resources`, `honor code`, `(the )?(dean|administration|board)`),
			suggest: "Close with follow-up: who you would inform or document it with, and how you would check on the people involved afterwards."},
	}, ordered: true, weights: [4]float64{0.35, 0.15, 0.25, 0.25}},
	feedback.TypeCommunication: {components: []component{
		{key: "setting", name: "preparing the conversation", weight: 0.6, need: 1,
			re: phrases(`private`, `quiet`, `sit down`, `sat down`, `(a|the) (room|setting|space)`, `make sure (I|we) (have|had) (time|enough time)`, `prepar(e|ed|ing)`,
				`review(ed)? (the|their|his|her) (chart|history|results|records)`, `eye level`, `(get|got|getting|kneel|knelt) down to (his|her|their) level`, `introduc\w+ myself`, `eye contact`, `body language`, `tone`, `calm(ly)?`, `interrupt\w*`),
			suggest: "Start with the setting: where and how you would sit down with them — private, unhurried, without interruptions."},
		{key: "listening", name: "listening to their view", weight: 1.2, need: 2,
			re: phrases(`listen\w*`, `ask(ed)? (them|him|her|the patient|the owner|the client|the parents?) (what|how|about|to|why|if)`,
				`(their|his|her) (understanding|perspective|concerns?|questions|fears|worries|goals|side|frustrations?|expectations|priorities)`, `open[- ]ended`,
				`let (them|him|her) (talk|speak|vent|finish|explain)`, `ask(ed|ing)? (what|why|how|whether|if|about)`, `find out (what|why|how|whether)`, `what (they|he|she) (already )?(know|knew|understand|understood|think|thought|want|wanted)`, `active(ly)? listen\w*`, `hear (them|him|her) out`, `paraphras\w*`, `reflect(ed)? back`),
			suggest: "Show the listening {after}: ask what they already understand and what worries them most, and let them finish before you explain."},
		{key: "empathy", name: "empathy", weight: 1, need: 1,
			re: phrases(`empath\w*`, `acknowledg\w*`, `validat\w*`, `I (can )?understand (how|that|why|this|your)`, `that must be`, `must (be|feel)`,
				`(feel|felt|feeling|feelings) (frustrated|scared|upset|angry|anxious|overwhelmed|heard|discouraged|hopeless)`, `(their|his|her) (feelings|emotions)`, `compassion\w*`, `reassur\w*`,
				`silence`, `a moment`, `give (them|him|her) (time|space|a moment)`, `emotion(al|s)`, `frustrat\w*`, `normali[sz]\w*`,
				`(worried|scared|nervous|afraid|anxious|frightened)`, `brave`, `(some|a sense of|in) control`),
			suggest: "Name the emotion you expect and respond to it {after} (“It makes sense that this is frustrating”) before moving to facts."},
		{key: "clarity", name: "explaining clearly", weight: 1, need: 1,
			re: phrases(`plain (language|words|english)`, `simple (terms|language|words)`, `jargon`, `in small (chunks|pieces|steps)`, `step by step`, `explain\w*`, `warning shot`,
				`clear(ly)?`, `honest(ly)?`, `diagrams?`, `draw(ing)?`, `analog(y|ies)`, `visuals?`, `written (instructions|information|summary|handout)`, `translator`, `interpreter`, `realistic`,
				`tell[- ]show[- ]do`, `avoid (words|terms|jargon|medical)`, `(in )?(his|her|their) (own )?(terms|words|language)`, `let (her|him|them) (touch|see|hold|feel|try)`),
			suggest: "Say how you would explain the facts: plain words, small pieces, honest about uncertainty — for example with a picture or an analogy."},
		{key: "plan", name: "checking understanding and next steps", weight: 1, need: 1,
			re: phrases(`teach[- ]back`, `repeat (it )?back`, `summari[sz]\w*`, `(any|their|his|her) questions`, `next steps?`, `plan`, `goals?`, `follow[- ]up`,
				`check (in|back|that|their|whether|if)`, `make sure (they|he|she|the patient|the owner|the client) (understood|understand|knew|know|felt|feel)`,
				`shared decision`, `together`, `resources`, `support (group|system|services)`, `milestones?`,
				`(let|letting) (him|her|them) (choose|pick|decide)`, `choices?`, `signal`, `raise (your|her|his|their) hand`, `chart`, `involve (the|his|her|their) (parents|family|daughter|son)`, `(agree|agreed) on`, `trial`, `check in`),
			suggest: "End with the plan {after}: check what they understood (teach-back), agree next steps together, and say when you will follow up."},
	}, ordered: false, weights: [4]float64{0.30, 0.25, 0.20, 0.25}},
	feedback.TypeWhyProfession: {components: []component{
		{key: "motivation", name: "your motivation", weight: 1, need: 1,
			re: phrases(`(I want|I'd like|I would like|I hope|I plan) to (become|be|work|pursue|practi[cs]e|spend)`, `what (draws|drew|attracts|attracted|excites|inspires|inspired|led|pulled) me`, `(drawn|attracted|called) to`,
				`(the )?reasons? (why )?I (want|chose|am pursuing|'m pursuing)`, `I (chose|am pursuing|'m pursuing|decided to pursue)`, `(my|the) (interest|fascination|curiosity|motivation) (in|for)`,
				`fell in love with`, `I( also| really| especially)? (love|like|enjoy|value|appreciate) (the|how|that|being|working|to|it|this|what)`, `I('d| would) rather`, `(combination|blend|intersection|mix) of`, `why I want`),
			suggest: "Lead with your reason in one sentence — what it is about a {who}'s work that you want — before the story behind it."},
		{key: "exposure", name: "specific exposure", weight: 1.2, need: 1,
			re: phrases(`shadow\w*`, `volunteer\w*`, `(worked|work|working) (as|at|in|alongside|with|for)`, `intern(ship|ed)?`, `scribe`, `(dental|medical|pharmacy|veterinary|vet|rehab|therapy|clinical|research|hospital) (assistant|technician|tech|aide|office|clinic|experience|hours|setting)`,
				`(?-i:EMT|CNA)`, `\d+ hours`, `(a|the) clinic`, `(a|the) hospital`, `rotation`, `mission trip`, `patient care`, `job (as|at)`,
				`as (a|an) ([\w-]+ ){0,2}(assistant|aide|technician|tech|scribe|volunteer|intern|receptionist|caregiver)`, `([\w-]+ )?(clinic|hospital|practice|operation|farm|shelter|pharmacy|nursing home|rehab center)`, `(summers?|years?|months) (on|at|in|with)`),
			suggest: "Name your exposure to the profession {after}: where you shadowed, volunteered or worked, for how long, and one thing you saw a {who} do."},
		{key: "reflection", name: "reflection on what you saw", weight: 1, need: 1, re: reflectionCues,
			suggest: "Reflect on the experience {after}: what did it show you about the job, or about yourself, that a brochure could not?"},
		{key: "fit", name: "understanding of the role", weight: 1, need: 3,
			re: phrases(`long-term`, `relationships?`, `continuity`, `prevent\w*`, `team`, `trust`, `communit(y|ies)`, `underserved`, `access to care`, `educat(e|ing|ion)`, `lifelong learn\w*`,
				`responsibilit(y|ies)`, `hands[- ]on`, `science`, `problem[- ]solving`, `diagnos\w*`, `treatment plans?`, `(the )?(reality|realities|downsides?|hard parts?|challenges) of`, `(work|working) with (my )?hands`, `public health`, `whole person`, `holistic`),
			suggest: "Show you understand the job as it is — what a {who} does day to day that other health roles do not — and why that suits you."},
		{key: "future", name: "where you are headed", weight: 0.5, need: 1,
			re: phrases(`I (hope|plan|want|see myself|intend|look forward) to`, `in the future`, `one day`, `someday`, `(my|the) (long-term )?goal`, `I('m| am) (excited|eager|ready)`,
				`as a (future )?(dentist|physician|doctor|pa|physician assistant|pharmacist|physical therapist|occupational therapist|veterinarian|vet|clinician|provider)`, `I (still )?want (it|this|that)`, `(is|was) what I want`),
			suggest: "Close with where you are headed: the kind of {who} you want to be or the patients you want to serve."},
	}, ordered: false, weights: [4]float64{0.20, 0.30, 0.25, 0.25}},
	feedback.TypeTellMe: {components: []component{
		{key: "background", name: "where you come from", weight: 0.8, need: 1,
			re: phrases(`I grew up`, `I('m| am) (originally )?from`, `I was (born|raised)`, `my (family|parents|background|upbringing|hometown|home town|mom|dad|mother|father)`, `raised (in|by)`,
				`first[- ]generation`, `immigra\w*`, `growing up`, `as a (kid|child|teenager)`),
			suggest: "Open with a line of background — where you grew up or what shaped you — so the rest has a starting point."},
		{key: "education", name: "your studies and work", weight: 1, need: 1,
			re: phrases(`I (studied|study|majored|major|graduated|attend|attended|completed|earned)`, `(I'm|I am) (a|an) (senior|junior|student|graduate)`, `my (major|degree|studies|undergrad\w*|coursework|research|thesis)`,
				`university`, `college`, `(I|I've|I have) (worked|been working|volunteered|shadowed)`, `(my|a) job`, `research`, `degree in`),
			suggest: "Say what you studied and did {after}: your degree and the one or two experiences that matter most for this application."},
		{key: "defining", name: "a defining experience", weight: 1, need: 1,
			re: phrases(`(one|an|a) (experience|moment|patient|summer) (that|which)`, `(that's|that is|that was|this was) when`, `(turning|pivotal|defining) (point|moment)`, `changed (my|how|the way)`,
				`shadow\w*`, `volunteer\w*`, `when I (was|started|first|saw|watched|met)`, `I (saw|watched|met|remember)`),
			suggest: "Give one defining experience {after} in a few concrete sentences, rather than a list of activities."},
		{key: "personal", name: "who you are outside the CV", weight: 0.6, need: 1,
			re: phrases(`outside (of )?(school|work|class|the clinic|the lab)`, `in my (free|spare) time`, `hobb(y|ies)`, `I (enjoy|love) (running|cooking|hiking|music|playing|reading|painting|baking|teaching|coaching|climbing|gardening|swimming)`,
				`(I'm|I am) (someone|a person|the kind of person) who`, `my friends would (say|describe)`, `I (play|played|coach|coached|run|paint|sing|dance|cook|bake|knit|climb)`),
			suggest: "Add one line about who you are outside the CV — a pursuit or trait that a classmate would recognize."},
		{key: "forward", name: "why you are here now", weight: 1, need: 1,
			re: phrases(`(that's|that is|this is|which is) why`, `(now|today),? I`, `I('m| am) (now|currently|excited|applying|here|ready)`, `(applying|apply) to`, `this (program|programme|school|profession|career)`,
				`to become (a|an)`, `(I|I'd) (hope|want|look forward) to`, `next step`),
			suggest: "End by connecting the story to now {after}: why this profession and this application are the next step."},
	}, ordered: true, weights: [4]float64{0.15, 0.35, 0.25, 0.25}},
	feedback.TypeWhySchool: {components: []component{
		{key: "specific", name: "school-specific reasons", weight: 1.4, need: 2,
			re: phrases(`your ([\w-]+ ){0,2}(program|programme|school|curriculum|clinics?|faculty|mission|students|emphasis|focus|commitment|approach|community|research|location|class|cohort|simulation|rotations?|outreach|dual degree|track|partnerships?|lab|labs|center|centre|hospital|caseload|opportunities)`,
				`(the|this) (program|programme|school)('s)? (mission|curriculum|emphasis|focus|clinics?|commitment)`, `(early|hands[- ]on) clinical (exposure|experience)`, `problem[- ]based`, `small class`, `class size`,
				`mission statement`, `I (visited|spoke|talked|met)`, `students (I|told|who)`, `interview day`, `open house`, `(rural|urban|underserved|global|community) (health|track|rotation|clinic|program|communities|population)`,
				`student[- ]run`, `pass rates?`, `board (pass|scores)`, `faculty`, `mentor(ship|s)?`, `first[- ]year`, `curriculum`),
			suggest: "Give reasons that are true of this school and not of every school: a named program, clinic, curriculum feature or conversation with a student."},
		{key: "link", name: "the link to you", weight: 1, need: 1,
			re: phrases(`(fits?|align\w*|match\w*) (with )?(my|what I)`, `as someone who`, `(my|I) (experience|background|goal|goals|interest|passion)`, `because I (have|want|worked|spent|grew|love)`,
				`(which|that) (is|was) (exactly )?what I`, `I (spent|worked|grew|have|volunteered|shadowed|help|helped|work|volunteer|did|do)`, `for me`, `similar`,
				`my (city|town|community|county|clinic|job|hometown|experience)`),
			suggest: "Tie each reason to you {after}: which of your experiences or goals makes that feature matter to you?"},
		{key: "contribution", name: "what you would bring", weight: 0.8, need: 1,
			re:      phrases(`(I|I'd|I would|I will|I can|I'll) (contribute|bring|add|join|get involved|help|lead|start|continue|participate|serve)`, `(contribute|give back) to`, `(get|be|become) involved`),
			suggest: "Say what you would bring {after}: the activity you would join or start and how your experience would help classmates or patients."},
	}, ordered: false, weights: [4]float64{0.30, 0.35, 0.15, 0.20}},
	feedback.TypeGeneral: {components: []component{
		{key: "answer", name: "a direct answer", weight: 1, need: 1,
			re:      phrases(`I (think|believe|would|feel)`, `(my|the) answer`, `(the )?(most important|key|main)`, `first(ly)?`, `to me`, `for me`),
			suggest: "Answer the question directly in your first sentence, then support it."},
		{key: "example", name: "a supporting example", weight: 1, need: 1, re: situationCues,
			suggest: "Back your answer with one real example {after}: where, when, who, and what you did."},
		{key: "reasoning", name: "your reasoning", weight: 1, need: 1, re: reasonCues,
			suggest: "Give the why behind your answer {after}: the reason that connects it to caring for patients."},
		{key: "reflection", name: "a closing reflection", weight: 0.8, need: 1, re: reflectionCues,
			suggest: "Close with what this says about you as a future {who}."},
	}, ordered: true, weights: [4]float64{0.30, 0.30, 0.20, 0.20}},
}

// Specificity: concrete detail an interviewer can picture. Each family counts
// once towards breadth; every hit counts towards depth.
var specificityCues = []struct {
	name string
	re   *cues
}{
	{"number", phrases(`\d+(\.\d+)?`, `two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|dozen|half`)},
	{"time", phrases(`last (summer|year|spring|fall|autumn|winter|semester|month|week)`, `(in|during) (my )?(freshman|sophomore|junior|senior|gap|first|second|third|final) year`,
		`(in|since) (19|20)\d\d`, `when I was (\d+|a|in|an)`, `one (day|morning|afternoon|evening|night|shift|weekend)`, `that (day|morning|night|week|afternoon|evening)`,
		`every (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend|morning|summer)`, `for (two|three|four|five|six|\d+|several) (years|months|weeks|hours|days|summers)`,
		`(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?`, `(january|february|march|april|may|june|july|august|september|october|november|december)`)},
	{"place", phrases(`clinic`, `hospital`, `(dental |private |group )?practice`, `pharmacy`, `shelter`, `nursing home`, `lab(oratory)?`, `camp`, `ward`, `emergency (room|department)`, `farm`, `barn`,
		`(rehab|rehabilitation|outpatient|inpatient) (center|centre|clinic|unit)`, `community (center|centre|health)`, `free clinic`, `food bank`, `school`, `classroom`, `church`, `mission trip`,
		`(operating|exam|waiting) room`, `ICU`, `(?-i:ER)`, `pediatric|paediatric`)},
	{"person", phrases(`(my|a|the|one|an|our) (patients?|client|owner|mentor|supervisor|dentist|physician|doctor|pharmacist|therapist|nurse|hygienist|technician|teammates?|classmates?|coworker|co-worker|colleague|manager|coach|grandmother|grandfather|grandma|grandpa|mother|father|mom|dad|brother|sister|aunt|uncle|cousin|friend|resident|attending|veterinarian|vet|preceptor|professor|teacher|roommate|son|daughter|child|boy|girl|man|woman|student|volunteer)`,
		`\d+-year-old`, `(year|years) old`)},
	{"name", pattern(`\b(?:Dr|Mr|Mrs|Ms|Prof)\.? [A-Z][a-z]+|\b(?:named|called) [A-Z][a-z]+`)},
	// What someone said, or what the applicant would actually say: the
	// difference between "I'd be empathetic" and the words they would use.
	{"dialogue", pattern(`(?i)\b(?:(?:she|he|they) (?:said|told me|asked|looked at me)|(?:told|asked) me|said to me|in (?:her|his|their) words|something like|(?:I'd|I would|I will|I'll) say)\b|['"“‘][A-Z][^'"”’.!?]{6,}[.!?,]?['"”’]`)},
}

var generalityCues = phrases(`(I|I've|I have) (always )?(just )?(love|loved|like|liked|enjoy|enjoyed|want|wanted) (to help|helping) (people|others)`, `help(ing)? people`, `make a difference`,
	`passionate about`, `I('ve| have) always (wanted|been interested|been fascinated|known)`, `ever since I was (a|little|young)`, `hard[- ]?work(ing|er)`, `team player`, `people person`,
	`good with people`, `stuff like that`, `things like that`, `and stuff`, `and so on`, `et cetera`, `etc`, `whatever`, `(great|good|excellent|strong) reputation`, `(highly|well|top)[- ]ranked`,
	`prestigious`, `close to (home|my family)`, `good weather`, `I would just`, `everyone knows`, `obviously`, `in general`, `a lot of (things|stuff|experience|experiences)`, `many (things|situations|experiences)`)

// professionCues are the substance of each profession: words that show the
// applicant is talking about this job and not health care in general.
var professionCues = map[string]*cues{
	"dental": phrases(`dentist\w*`, `dental`, `teeth`, `tooth`, `oral`, `hygien\w*`, `gums?`, `cavit(y|ies)`, `fillings?`, `crowns?`, `root canals?`, `extraction\w*`, `orthodont\w*`, `smiles?`,
		`braces`, `periodon\w*`, `floss\w*`, `brush\w*`, `enamel`, `decay`, `dentures?`, `implants?`, `molars?`, `x-rays?`, `sealants?`, `fluoride`, `anesthe\w*`, `chair ?side`, `hands`, `mouth`, `numb\w*`, `drill\w*`, `sugar bugs?`),
	"medical": phrases(`physicians?`, `doctors?`, `medicine`, `medical`, `diagnos\w*`, `disease`, `illness`, `hospital`, `clinical`, `symptoms?`, `residen(t|cy)`, `attending`, `surg(ery|eon|ical)`,
		`emergency`, `primary care`, `chronic`, `prognosis`, `medications?`, `care team`, `bedside`, `ICU`, `(?-i:ER)`, `nurses?`, `patients?`, `treatment`, `transfusion`, `scans?`, `biopsy`, `cancer`, `terminal`),
	"pt": phrases(`physical therap\w*`, `(?-i:PTs?)`, `rehab\w*`, `mobility`, `exercises?`, `injur(y|ies)`, `recover\w*`, `strength(en|ening)?`, `range of motion`, `gait`, `balance`, `function(al|ing)?`,
		`movement`, `muscles?`, `joints?`, `knee`, `ACL`, `stroke`, `pain`, `sessions?`, `home exercise`, `treatment plan`, `orthopedic`, `therapist`, `walk(ing)?`, `progress`),
	"pa": phrases(`physician assistants?`, `(?-i:PAs?)`, `supervising physician`, `collaborat\w*`, `team[- ]based`, `lateral`, `switch(ing)? specialt(y|ies)`, `specialt(y|ies)`, `generalist`,
		`primary care`, `diagnos\w*`, `prescrib\w*`, `medicine`, `clinical`, `medical`, `providers?`, `scribe`, `(?-i:EMT|CNA)`, `urgent care`, `patients?`, `physicians?`, `model`),
	"pharmacy": phrases(`pharmac\w*`, `medications?`, `meds`, `drugs?`, `prescri\w*`, `dos(e|es|age|ing)`, `counsel\w*`, `interactions?`, `side effects?`, `adherence`, `refills?`, `insurance`,
		`over[- ]the[- ]counter`, `compounding`, `formulary`, `technician`, `pharmacokinetic\w*`, `vaccin\w*`, `immuni[sz]\w*`, `antibiotics?`, `insulin`, `inhaler`, `pills?`, `prescriber`),
	"ot": phrases(`occupational therap\w*`, `(?-i:OTs?)`, `daily living`, `ADLs?`, `independen\w*`, `function(al|ing)?`, `meaningful`, `occupations?`, `adaptive`, `adapt(ed|ing|ations?)`, `fine motor`, `sensory`,
		`rehab\w*`, `splint\w*`, `dressing`, `feeding`, `cognitive`, `stroke`, `autism`, `developmental`, `holistic`, `quality of life`, `routines?`, `therapist`, `activities`),
	"veterinary": phrases(`veterinar\w*`, `vets?`, `animals?`, `pets?`, `dogs?`, `cats?`, `horses?`, `cattle`, `cows?`, `livestock`, `owners?`, `clients?`, `shelter`, `euthanas\w*`, `zoonotic`, `one health`,
		`spay\w*`, `neuter\w*`, `vaccin\w*`, `large animal`, `small animal`, `welfare`, `husbandry`, `exotics?`, `food animal`, `public health`, `puppy|kitten|calf|calves|mare|foal`),
}

// healthCues are health care in general: worth something, less than the
// profession's own substance.
var healthCues = phrases(`patients?`, `care`, `health`, `clinical`, `treatment`, `trust`, `prevent\w*`, `empathy`, `compassion`, `well-?being`, `community`)

var (
	// fillerCues are filled pauses and the spoken hedges that fill the
	// same gap ("I guess", "and stuff").
	fillerCues = phrases(`u+m+`, `u+h+`, `uhm`, `e+r+m?`, `a+h+`, `h+m+`, `m+h*m+`, `you know`, `I mean`, `like,`, `kind of like`, `sort of like`,
		`I guess`, `and stuff`, `or something( like that)?`, `or whatever`, `(I|I'm|it's|it was|was|is|just|really) (kind|sort) of`)
	hedgeCues = phrases(`I guess`, `I don't (really )?know`, `kind of`, `sort of`, `maybe`, `probably`, `I'm not sure`, `I suppose`, `or something`)
)

// jargonCues are the terms of art an applicant can string together without
// saying what they would do: a handful of them with no concrete step or
// detail is an answer made of keywords.
var jargonCues = phrases(`autonomy`, `beneficence`, `non-?maleficence`, `justice`, `holistic`, `(client|patient|family|person)[- ]cent(e|)red`, `evidence[- ]based`, `shared decision[- ]making`,
	`interprofessional`, `interdisciplinary`, `collaboration`, `cultural (humility|competence|sensitivity)`, `therapeutic (use of self|alliance|relationship)`, `active listening`, `empathy`,
	`rapport`, `advocate`, `advocacy`, `best practices?`, `strengths[- ]based`, `transparen(t|cy)`, `quality of life`, `(the )?STAR (method|format)`, `SPIKES`, `professionalism`,
	`integrity`, `accountability`, `trauma[- ]informed`, `biopsychosocial`, `stakeholders?`, `synerg\w*`, `paradigm`, `framework`, `lens`, `occupational engagement`, `person-environment-occupation`)

// stockLessons are lessons anyone could draw from anything: reflection in
// form, not in substance.
var stockLessons = phrases(`(not to|never|don't) give up`, `hard work pays off`, `(always )?ask for (help|feedback)`, `communication is (key|important|so important|everything)`,
	`teamwork is (key|important|essential)`, `everything happens for a reason`, `(it's|it is) (really |so |very )?important to (speak up|communicate|listen|be respectful|be patient|stay calm|be honest|ask questions)`,
	`to (always )?be (more )?patient`, `(the )?importance of (communication|teamwork|hard work|patience|listening)`, `(you|I) (can|should) (always )?learn from (your|my) mistakes`, `(to )?believe in (myself|yourself)`)
