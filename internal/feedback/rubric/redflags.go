package rubric

import (
	"slices"
	"strings"

	"github.com/whitecoat/whitecoat/internal/feedback"
)

// flagRule is how one red flag is recognised. Phrase rules raise the flag
// on a trigger phrase that the applicant says they did or would do; the
// same phrase denied ("I would never pressure her"), reported of someone
// else ("the resident wanted to hide it") or raised as the option to reject
// ("one option is to treat anyway, but that ignores her wishes") does not.
type flagRule struct {
	key  feedback.FlagKey
	name string // for the summary: "overriding the patient's decision"
	// why an interviewer reacts badly; instead, what a strong answer does.
	why, instead string
	triggers     *cues
	// types the rule applies to; empty: every type.
	types []feedback.QuestionType
	// context, when set, must occur in the question or the answer for the
	// triggers to count (silence is a flag about cheating, a virtue about a
	// confidence).
	context *cues
	// opinion rules judge people rather than describe conduct: the words
	// are the applicant's whoever they are about ("they shouldn't own a
	// dog"), unless someone else is quoted saying them.
	opinion bool
	// voidedBy are words that, right after a trigger, make it innocent:
	// "I wouldn't tell her" is deception, "I wouldn't tell her parents" is
	// confidentiality kept.
	voidedBy map[string]bool
}

var behaviouralTypes = []feedback.QuestionType{feedback.TypeBehavioral, feedback.TypeTeamwork, feedback.TypeLeadership, feedback.TypeGeneral, feedback.TypeCommunication}

var flagRules = []flagRule{
	{key: feedback.FlagOverride, name: "overriding the patient's decision",
		why:     "A capable adult (or an animal's owner) may refuse care. Treating anyway, or without consent, is battery in law and the opposite of the patient-centered judgment interviewers look for.",
		instead: "Explore why they refuse, check capacity, make sure they understand the risks, offer alternatives, and respect an informed refusal — then document it and keep the door open.",
		triggers: phrases(`(give|do|treat|perform|proceed|go ahead|start|continue|carry on|administer|extract|pull|operate)\b[^.!?]{0,60}?\b(anyway|regardless|either way)`,
			`(while|when|once) (he|she|they|the patient|the dog|the cat|the animal)('s| was| is| were| are)? (sedated|asleep|under|unconscious|out|put under)`,
			`without (telling|asking|informing) (him|her|them|the patient|the owner|the client|the family)`, `without (his|her|their|the patient's|the owner's|the client's) (consent|permission|knowledge|agreement|approval)`,
			`(override|overrule|overriding|overruling) (his|her|their|the patient's|the owner's|the client's|the family's) (wishes|decision|refusal|choice|objection)s?`,
			`(document|record|chart|write) (it|that|this)? ?(down )?as (consented|agreed|authori[sz]ed|approved)`, `(for|in) (his|her|their) own good`,
			`whether (he|she|they) (like|likes|want|wants) it or not`, `(he|she|they)('ll| will) (thank|forgive) me (later|eventually|afterwards?)`,
			`(hide|slip|sneak|crush|mix) (it|the (pill|pills|medication|medicine|drug|tablets?))[^.!?]{0,20}\b(in|into) (his|her|their) (food|drink|juice|water|meal|coffee)`,
			`(doesn't|does not|don't|do not) (get|have) (a|any) (say|choice|vote) in`, `go ahead and (remove|extract|pull|do|treat|give|admit|start|perform|operate|finish|fill|place)`,
			`even (when|if) (she|he|they) (can't|cannot|doesn't|does not|don't|won't) see it`, `(treat|make|consider|have)\w* (the|his|her|their) (son|daughter|wife|husband|family|parents?|owner) (as )?the decision[- ]maker`, `treat (him|her|them) as the decision[- ]maker`,
			`(patients|people|clients|owners) who (are|get|were) pushed`, `something (isn't|is not|wasn't|was not) right with (his|her|their) (reasoning|thinking|judgement|judgment)`,
			`(doesn't|does not|don't|wouldn't|would not) carry the same weight`, `(let|tell|told|letting|telling) (him|her|them) (know )?(afterwards|after the fact|once it's done)`, `(rather|instead) (explain|tell)( to)? (him|her|them) later why`,
			`(while|when|once) (she|he|they|(her|his|their) (mom|dad|mother|father|owner|husband|wife)|the (client|patient|owner)) (is|was|are|were|'s) (out|away|gone|not (home|there|looking)|asleep|at (a|an|the|work|school|her|his|their))`,
			`(something|things) (we|I) (took|take) care of for (her|him|them)`,
			`while (we're|we are|I'm|I am|you're|you are) (already )?(in )?there`, `(don't|do not) think (she|he|they)('d| would| will) (object|mind|care|complain)`,
			`(almost |most )?(anyone|everyone|anybody|any patient|any owner|most patients|most people) would (choose|want|agree|pick|prefer)`, `(she|he|they)('s| is| are|'re| was| were) already (numb|sedated|under|asleep|open|prepped)`, `(it's|it is) not (really )?(his|her|their) (decision|choice|call)`),
		voidedBy: wordSet("until", "unless"),
	},
	{key: feedback.FlagDeception, name: "hiding the truth",
		why:     "Interviewers are listening for honesty above all: hiding an error or deceiving a patient, owner or supervisor is the surest way to be rejected, however good the outcome.",
		instead: "Tell the patient and your supervisor what happened, take responsibility, fix what can be fixed, and report it so it does not happen again.",
		triggers: phrases(`(wouldn't|would not|won't|will not|didn't|did not|don't|do not|never) (mention|disclose|bring up|tell|say anything about|admit|report)( it| this| that| the (error|mistake|transfusion|procedure|incident|switch|mix-up))?( to)? (him|her|them|the patient|the owner|the client|the family|his family|her family|their family|my supervisor|the dentist|the pharmacist|the attending|my preceptor|the doctor|the physician|my manager|the vet|the veterinarian)`,
			`(he|she|they|the patient|the owner|the client|nobody|no one|anyone)( would| will)? (never|not|won't|wouldn't|will never|would never|doesn't need to|don't need to|didn't need to|needs? to never) (know|notice|find out|realize|realise|be told)`,
			`no (need|reason) to (tell|mention|worry|upset|alarm|bother) (him|her|them|the patient|the owner|the client|the family|anyone)`,
			`keep (it|this|that|the (error|mistake|incident)) (between us|quiet|to myself|to ourselves|off the record|hidden|from (him|her|them|the patient|the owner|the family|my supervisor))`,
			// "Cover it" alone is a dressing ("then I'd cover it and put on a
			// clean glove"); covering it up, or covering for someone, hides.
			`cover(ing|ed)? (it|this|that) up`, `cover(ing|ed)? the (error|mistake)`, `cover(ing|ed)? for (him|her|them|myself)`, `cover(ing|ed)?[- ]up`,
			`(leave|left|keep|kept) (it|this|that|the (error|mistake|dose))? ?out of (the|his|her|my) (chart|note|notes|record|records|report|log)`,
			`(quietly|discreetly|secretly) (fix|fixed|correct|corrected|replace|replaced|swap|swapped|redo|redid|refill|refilled|throw|threw|restock|restocked)`,
			`(tell|told|say|said|explain|explained) (to )?(him|her|them|the patient|the owner|the client) (that )?(it was|it's|it is|this was|this is|the (pain|swelling|bleeding|reaction) (was|is)) (normal|expected|nothing|fine|routine|a normal)`,
			`white lie`, `(told|tell|telling) (her|him|them|the (patient|owner|client)) (that )?(we|it|they|the \w+)('d| had| have)? (switched|changed) (manufacturers?|suppliers?|brands?|generics?|labs?)`,
			`(didn't|did not|don't|do not|wouldn't|would not) (see the (value|point|need) in|bother with|file|fill out|write)( making [\w ]{0,40})? (an? )?(incident|error) report`, `(skip|skipped|skipping) the (incident|error) report`, `(I'd|I would|I will|I'll) (just )?say (that )?(it|the [\w-]+( [\w-]+)?) (was|were|had been) (done|fine|normal|given|completed|checked|seen)`,
			`note in the chart that (it|the [\w-]+) was (discussed|agreed|consented)`, `(blame|blamed|put) it on (the|a) (machine|system|computer|software|pharmacy|lab|printer|supplier|insurance)`,
			`no harm,? no foul`, `lie (to|about)`, `lied (to|about)`, `pretend(ed|ing)? (that|it|nothing|to)`, `(it|this) (stays|stayed) between (us|me)`, `sweep (it|this) under`),
		voidedBy: wordSet("parents", "mother", "father", "mom", "dad", "employer", "boss", "friends", "coach", "school", "teacher", "husband", "wife", "partner", "kids", "children", "son", "daughter", "neighbours", "neighbors", "coworkers", "classmates", "teammates"),
	},
	{key: feedback.FlagFalsifiedRecords, name: "falsifying a record",
		why:     "A chart, a log or a claim is what the next clinician, the patient and the law rely on. Writing what did not happen, back-dating it or coding care that was not given is falsification and fraud, however small or kindly meant.",
		instead: "Record what actually happened, when it happened; add a late entry marked as late; bill only what was done — and solve the real problem (cost, time, a missed step) in the open.",
		triggers: phrases(`(chart|charting|charted|document|documenting|documented|record|recording|recorded|write|writing|wrote|log|logging|logged)( it| this| that| the (procedure|visit|session|note|exam|dose|treatment|filling))?( up| down)? as if`,
			`as if (everything|it|nothing|the (session|visit|procedure|exam|treatment)) (went|happened|had gone|had happened|was|were|took place)`,
			`back-?dat(e|ed|es|ing)`, `(miscode|miscoded|miscoding|upcode|upcoded|upcoding)`,
			`(code|coded|coding|bill|billed|billing|submit|submitted|charge|charged)( it| this| that| her| his| their| the)?( [\w-]+){0,2} as (a |an )?(periodontal|perio|deep|scaling|root planing|medically necessary|[\w-]+ (treatment|therapy|procedure|scaling|cleaning))`,
			`bill(ed|ing)? (for )?(the )?(two|three|four|five|six|\d+|more|extra|additional) units`,
			`(write|wrote|writing|record|recorded|chart|charted|document|documented|log|logged|enter|entered|put down|mark|marked)( it| that)?( in| on| into)?( the| his| her| their)?( record| chart| notes?| form| certificate| log)? that (it|the (vaccine|booster|shot|dose|session|visit|exam|procedure|treatment)) (was|had been|were) (given|done|completed|administered|performed)`,
			`notes? so (that )?(they|it) (support|supports|match|matches|justify|justifies)`, `so (that )?(it|the (claim|chart|record|note)) (looks right|look right|goes through|go through|passes|looks clean)`,
			`(change|changed|alter|altered|edit|edited|adjust|adjusted|fix|fixed|rewrite|rewrote|amend|amended) (the|his|her|their|my) (chart|charting|notes?|records?|documentation|log|logs|entry|count)`,
			`(update|updated|adjust|adjusted|change|changed|correct|corrected|reconcile|reconciled|set|bring|brought)\w* (the )?([\w-]+ ){0,2}(inventory|count|counts|log|records?|chart|numbers|books) (to|so (it|they|that it)) (match|matches|the physical|what|agree|agrees)`,
			`so (that )?the (records?|count|numbers|log|books|inventory|chart) (are|is|look|match|stays?) (clean|right|correct|fine|balanced)`,
			`(fake|faked|falsify|falsified|falsifying|fabricate|fabricated|fudge|fudged) (the |a |an |my |his |her |their )?(chart|note|notes|record|records|log|documentation|signature|entry|claim|certificate)`),
	},
	{key: feedback.FlagCoercion, name: "pressuring the patient",
		why:     "Using fear, guilt or family to change a capable person's decision is coercion: it undermines consent and trust, and interviewers hear it as not respecting the patient.",
		instead: "Inform and persuade with honest reasons, ask what matters to them, involve family only with their agreement, and accept an informed decision you disagree with.",
		triggers: phrases(`(pressure|pressured|pressuring|push|pushed|pushing|scare|scared|scaring|guilt|guilted|guilt-trip\w*|frighten|frightened|frightening|bully|bullied|manipulate|manipulated|talk|talked|badger|badgered|nag|nagged|shame|shamed) (him|her|them|the patient|the owner|the client|the family|the parents?)( into| to| until)`,
			`(use|using|enlist|enlisting|bring in|bringing in|get|getting|call|calling|ask|asking) (his|her|their|the patient's) (family|kids|children|husband|wife|parents|daughter|son|spouse|partner|pastor|mother|father)( to| so (they|he|she) can)? ?(convince|persuade|change|get|make|pressure|talk|push|work on)`,
			`(remind|reminding|tell|telling) (him|her|them) (that )?(he|she|they)('s|'re| is| are| was| were)? (letting|going to let|being) (\w+ )?(down|selfish|irresponsible)`,
			`(he|she|they) (has|have|had|would have) no (choice|option|say)`, `(until|till) (he|she|they) (agrees?|agreed|gives? in|gave in|changes? (his|her|their) mind|says? yes|signs?|comes? around)`,
			`(won't|wouldn't|will not|would not) (take|accept) no for an answer`, `make (him|her|them) feel (guilty|bad|selfish|ashamed|stupid|irresponsible)`, `scare tactics?`,
			`(exaggerate|exaggerating|overstate|overstating|play up|playing up)( the)? (risks?|dangers?|consequences)`,
			`(refuse|refusing|won't|wouldn't) (to )?(treat|see|fill|serve|discharge|help) (him|her|them|the patient)( again)? unless`, `(threaten|threatened|threatening) (to|him|her|them)`,
			`if (she|he|they) (skipped|refused|didn't|did not|missed|wouldn't|would not|won't)[^.!?]{0,80}\b(have to wait|lose|lost|no (call|visit|tv|phone|dessert|privileges)|wouldn't get|couldn't (have|see|call|get))`,
			`(made|make|making) (it|the \w+|(his|her|their) \w+) (conditional|contingent) on`, `keep (working on|pushing|pressuring|at|after) (her|him|them|his|her mother|her father)`,
			`(not|no longer) (be )?the right (practice|pharmacy|clinic|office|fit) for (her|him|them)`, `enough persistence`, `(being|be) the bad guy`, `a little fear`, `keep on (him|her|them)`, `(that's|that is) (actually )?(really )?useful,? because I can use`, `(find|need|look for) a (new|different) (provider|doctor|dentist|pharmacy|practice|vet|clinic)`,
			`child protective services`, `(?-i:CPS)`, `medical neglect`, `(while|before) (she's|he's|they're|she is|he is|they are) (ready|willing) to agree`, `document(ed)? that (she|he|they) consented`,
			`(grandkids|grandchildren|kids|children|family) (to )?see (him|her|them) (in a wheelchair|like that|sick|suffer|die)`, `making (people|him|her|them) uncomfortable`),
	},
	{key: feedback.FlagConfidentiality, name: "a confidentiality breach",
		why:     "Patients tell clinicians what they tell no one else. Naming a patient, passing on records or telling family, friends or employers without consent breaks that trust and, in many places, the law.",
		instead: "Keep what a patient tells you within the care team unless they agree or someone is at serious risk; speak about cases without names or identifying details.",
		triggers: phrases(`told (my|all my|a few of my) (friends|family|roommates?|parents|classmates|coworkers) about (the|a|this|that|her|his|one) (patient|client|case)`, `posted (it|about|a (photo|picture|video))`,
			`(on|to) (social media|instagram|facebook|tiktok|snapchat|twitter|reddit)`, `gossip\w*`,
			`(tell|told|call|called|email|emailed|text|texted|inform|informed|let|notify|notified|warn|warned) (his|her|their|the patient's) (employer|boss|manager|coach|school|teacher|landlord|neighbou?rs?|friends?|coworkers?|co-workers?|wife|husband|spouse|partner|parents?|mom|dad|mother|father|family)( know)? (about|that|what|everything|the)`,
			`(send|sent|fax|faxed|forward|forwarded|pass|passed|share|shared|give|gave|hand|handed|email|emailed|show|showed) (his|her|their|the patient's|the client's|the owner's|the) (records?|chart|file|results|diagnosis|information|history|test results|x-rays?|notes)( over)? (to|with) (his|her|their|the)? ?(employer|boss|insurance|school|coach|lawyer|family|friends?|parents?|spouse|husband|wife|partner|manager|landlord|neighbou?rs?)`,
			`(looked|look|peeked|peek|checked|check|pulled|pull) (up )?(at )?(his|her|their|my \w+'s|a friend's|my friend's|my neighbou?r's) (chart|records?|file|results|labs|history)`,
			`(give|tell|share with|told|gave|shared with) (him|her|them|the (son|daughter|family|caller|husband|wife|parents?|mother|father)) (the )?(big picture|results|findings|diagnosis|general idea|gist|basics|outline)`,
			`(patient|client|owner) named [a-z]+`, `(a|the|one|my) (patient|client) called (?-i:[A-Z])[a-z]+`,
			`(give|gave|tell|told|update|updated|call|called) the (coach|employer|boss|school|teacher|manager|landlord)`, `(coach|employer|boss|teacher|school|landlord|neighbou?r)( is|'s) (really |also )?part of (the|his|her|their) (\w+'s )?(care )?team`,
			`(go|goes|went|going) (through|over) the (results|diagnosis|biopsy|findings|prognosis|scan|report)( [\w-]+){0,4} with (the|his|her|their) (daughter|son|family|wife|husband|brother|sister|mother|father|parents?|employer|caregiver)`,
			`before (we|I) (talk|tell|speak|talked|told|spoke)( to| with)? (the patient|him|her|them)`, `(patient|client|owner)'s (name|full name) (was|is)`),
		// "…with his wife only if he agrees", "…once he has signed a release".
		voidedBy: wordSet("only", "if", "once", "after", "when", "unless", "with"),
	},
	{key: feedback.FlagContempt, name: "contempt for the people you serve",
		why:     "Judging patients, clients or colleagues — for their choices, their money, their background or their competence — tells an interviewer how you will treat the people who need you most.",
		instead: "Describe people with respect and curiosity: try to understand their situation, meet them where they are, and offer options that fit their circumstances.",
		triggers: phrases(`(these|those) (people|patients|clients|owners|kids|families|parents|types)`, `people like (that|them|him|her|this)`, `(that|this) kind of (person|people|patient|client|owner)`,
			`frequent flyers?`, `drug[- ]seek\w*`, `junkies?`, `(welfare|medicaid) (patients|people|types|moms|mothers|families)`,
			`(lazy|stupid|dumb|ignorant|uneducated|irresponsible|selfish|crazy|dramatic|entitled|cheap|whiny|annoying|useless|incompetent|clueless|hysterical) (patients?|clients?|owners?|people|parents?|families|colleagues?|coworkers?|co-workers?|nurses?|techs?|teammates?|partners?|assistants?|receptionists?)`,
			`(shouldn't|should not|don't deserve to|doesn't deserve to|do not deserve to|does not deserve to|have no business|has no business) (really )?(own|have|get|keep|owning|having) (a |an )?(pets?|dogs?|cats?|animals?|horses?|kids|children|treatment|care)`,
			`(waste|wasting|wasted) (of )?(my|our|the clinic's|the doctor's|the dentist's|everyone's) time`, `(his|her|their) own fault`, `brought (it|this|that) on (themselves|himself|herself)`,
			`not (really |exactly |actually )?my (problem|concern|responsibility)`, `(just|simply) (doesn't|don't|didn't|did not) care`, `beneath me`, `(just|only|merely) (a|the) (tech|nurse|receptionist|assistant|hygienist|aide|scribe|cna)\b`,
			`(we're|we are|the clinic is|the practice is|we aren't|we are not|the hospital isn't) (not )?a charity`,
			`(weren't|wasn't|aren't|isn't|shouldn't|should not) (really |probably )?(in a position|ready|fit|responsible enough|equipped) to (take on|own|have|get|keep) (a |an )?(pets?|animals?|dogs?|cats?|horses?|kids|children)`,
			`(clients?|owners?|patients?|people) who (won't|refuse to|never) pay`, `(noncompliant|non-compliant) (patients?|clients?|people)`, `dead weight`, `made (a|their|this|that) choice (long )?before`, `(go|goes|went) unpaid`, `(suffer|pay) because of (his|her|their) (owners'?|owner's|family's|parents'?) (finances|money|budget)`, `in it for the (title|money|prestige|status)`, `(aren't|isn't|won't|will never) (going to )?make it as`,
			`the (type|kind) (who|that) (are|is|were|was)`, `(haven't|hasn't|have not|has not) kept up`, `(an|the) ego thing`, `work(ing)? around (him|her|them|someone|the (attending|physician|doctor|supervisor))`, `(never|don't) listen anyway`),
		opinion: true,
	},
	{key: feedback.FlagBlame, name: "blaming others",
		why:     "An answer that puts the fault on teammates, teachers or circumstances shows no ownership; interviewers want to hear what you would do differently.",
		instead: "Own your part: say what you could have done, what you did to fix it, and what you changed afterwards — and describe the others fairly.",
		triggers: phrases(`(it was|that was|it's|that's|was) (all |really |entirely |totally )?(their|his|her|my (teammates?'?s?|partners?'?s?|group'?s?|boss'?s?|manager'?s?|professor'?s?|instructor'?s?|supervisor'?s?|preceptor'?s?)) fault`,
			`(not|wasn't|was not|isn't|is not) (really |entirely )?my fault`, `(through|by) no fault of (my|our) own`,
			`(he|she|they) (was|were) (so |just |really |completely |totally )?(lazy|incompetent|useless|stupid|annoying|terrible|the problem|unreliable|hopeless)`,
			`(lazy|incompetent|useless|stupid|unreliable) (teammates?|partners?|people|coworkers?|co-workers?|group members?|lab partners?)`,
			`nothing (I|we) could (have )?(do|done)`, `idiots?`, `blamed (him|her|them|my|the)`,
			`(my|the) (group|team|partner|teammates?|lab partner|manager|boss) (let (me|us) down|dropped the ball|failed (me|us)|didn't pull (his|her|their) weight)`,
			`the (professor|instructor|teacher|system|schedule|school|grading|exam|test) (was|is|were) (unfair|to blame|the reason|the problem|poorly)`, `(if|had) (he|she|they) (just |only )?(had )?(done|listened|told|shown|pulled)`,
			`(wasn't|was not|isn't|is not) (on|up to) me`, `(was|were) supposed to be (her|his|their) (job|responsibility)`, `(I wasn't|I was not|it wasn't me) the one who`,
			`(can't|cannot) (always )?(rely|count|depend) on (other people|others|anyone)`, `(he|she|they) (also )?never (checks?|checked|helps?|helped|does|did|listens?|listened)`,
			`(didn't|did not) (think|feel) (it |that )?was fair`, `(can't|cannot) make (people|them|him|her|others) care`, `(entirely|all|completely|mostly) (down to|because of) (their|his|her|them|him)`,
			`(don't|didn't|doesn't|did not|do not|does not) pull (their|his|her) (own )?weight`, `who (had )?(written|wrote|did|done) which (parts|sections)`, `(I|we) (couldn't|could not|can't) (have )?(control|controlled|help|helped) (it|that)`),
		types:   behaviouralTypes,
		opinion: true,
	},
	{key: feedback.FlagToleratingDishonesty, name: "tolerating dishonesty",
		why:     "Professions that self-regulate need members who act on dishonesty. Staying silent, or helping, tells an interviewer you would put a friend before patients and the profession's integrity.",
		instead: "Speak to the person privately first, give them the chance to correct it, and if they do not, take it to the instructor or the proper channel — kindly, but without looking away.",
		triggers: phrases(`(let|letting|let's) (it|this|that|him|her|them) (go|slide|pass)`, `(look|looked|looking|turn|turned|turning) the other way`, `turn a blind eye`,
			`(not|none of|isn't|is not|wasn't) my (place|business|responsibility|job|problem) to`, `none of my business`, `mind my own business`, `stay out of it`,
			`everyone (does|did|else does|else did) it`, `(didn't|doesn't|won't|wouldn't|did not|does not) (really )?(hurt|harm) anyone`,
			`(it's|it was|it is) (only|just) (a|one) (quiz|homework|assignment|small|minor|practice|little)`, `(cut|give|gave|cutting|giving) (him|her|them) a (break|pass)`,
			`(snitch|tattle|rat (him|her|them) out|narc)`, `(help|helped|helping|let|allowed) (him|her|them) (to )?(copy|cheat|use my)`,
			`(share|shared|send|sent|give|gave|show|showed) (him|her|them) (my|the) (answers|notes|work|code|lab report|exam|test)`,
			`(sign|signed|signing) (in|the (sheet|log|attendance)) for (him|her|them)`,
			`(don't|do not|didn't|did not|wouldn't|would not) (think|feel|believe) (it('s| is| would be| was| will be))? ?(really |necessarily )?my (place|job|responsibility|business|call)`,
			`stay(ing)? in (my|your|our) lane`, `pick (my|your|our) battles`, `which battles to (pick|fight|choose)`, `(grey|gray) area`,
			`(no one|nobody|no one's|nobody's)( is| was|'s)? (actually |really )?(being )?(harmed|hurt)`, `(leave|left) (that|it|this) (to|between|up to) (the|them|him|her)`,
			`(their|his|her) (licen[cs]e|responsibility|problem|business|call),? not mine`, `(rather than|instead of|without) (getting|gets) (him|her|them) (in|into) trouble`, `out of proportion`, `follow (him|her|them) (for|through|into)`, `(having|have|has) each other's backs?`,
			`(running|run|go|going|went) to the (attending|professor|instructor|supervisor|manager|dean|director|pharmacist|dentist|vet) over`,
			`(what I wouldn't do|I wouldn't|I would not|I won't|I will not) (do )?(is )?go (straight |directly |right )?to the (faculty|instructor|professor|dean|attending|supervisor|manager|board|administration|school|police|authorities|committee|director)`,
			`(the )?system (has|will|would|should) (its own|catch|take care)`, `end (a|his|her|their) career`, `than a formal (report|complaint)`, `(something|things) that happens? (on|in|at) (a lot of|many|most|every)`,
			`(damage|hurt|ruin|follow)\w* (his|her|their|a good \w+'s|the \w+'s) (reputation|career|record|residency|application)`, `(fudge|fudged|round|rounded|tweak|tweaked|fake|faked|make up|made up|pad|padded|inflate|inflated) (the |my |our )?(data|numbers|results|hours|log|values|readings)`),
		context: phrases(`cheat\w*`, `bill\w*`, `records?`, `chart\w*`, `document\w*`, `plagiar\w*`, `cop(y|ied|ying)`, `dishonest\w*`, `falsif\w*`, `fak(e|ed|ing)`, `lie|lied|lying`, `steal\w*|stole`, `exam`, `test`, `quiz`, `sign(ed|ing)? in`, `hours`, `data`, `impaired|drunk|high`, `diver(t|ted|sion)`, `hono(u)?r code`, `graded`, `practicals?`, `assignments?`, `(handed|turned) in`, `someone else's`, `falsif\w*`, `misconduct`),
	},
	{key: feedback.FlagDisguisedStrength, name: "a weakness that is a disguised strength",
		why:     "\"I work too hard\" or \"I'm a perfectionist\" dodges the question; interviewers hear a rehearsed line and no self-awareness.",
		instead: "Name a real weakness or mistake, show its cost with an example, and say what you are doing about it and how you know it is working.",
		triggers: phrases(`(weakness|flaw|fault) (is|would be|has always been|was) (probably |that |honestly )*(perfectionis\w*|caring too|working too|taking on too|being too (dedicated|committed|thorough|caring|invested|hard[- ]working))`,
			`(I'm|I am|I can be|I tend to be|I've always been|I have always been) (a )?(bit (of a |too )?|little (too )?|too |sometimes too |almost too )?(perfectionist|workaholic|detail[- ]oriented|hard[- ]working|dedicated|committed|thorough|invested|caring|passionate|driven|organi[sz]ed|selfless)`,
			`I (care|cared|work|worked|try|tried|give|gave|put in) too (much|hard)`, `(care|work|try) too (much|hard)`, `take on too (much|many)`, `(can't|cannot|couldn't|could not) say no`,
			`(my|the) (mistake|failure) was (that I|being|caring|working|taking|trying) (too|so)`, `too much of a perfectionist`,
			`(get|got|getting|become|became|becoming|am|was|being) too (invested|involved|attached|emotionally involved|dedicated)`, `(caring|care|cared) (a little |a bit |way )?too much`,
			`hold(ing)? myself to (a |an )?(impossibly |very |really |too |extremely |incredibly )?(high )?(standards?|bar)`, `anything less than (excellent|perfect|my best|the best)`),
		types:   []feedback.QuestionType{feedback.TypeBehavioral, feedback.TypeGeneral},
		opinion: true,
	},
	{key: feedback.FlagAddressesScorer, name: "talking to the scorer instead of answering",
		why:     "The answer speaks to the scoring system rather than to an interviewer; it cannot be judged as an answer.",
		instead: "Give the answer you would give an interviewer.",
		triggers: phrases(`ignore (all |any |your |the |my )?(previous |prior |above |earlier )?(instructions|rubric|prompt)`, `(give|score|rate) (me|this( answer)?|it) (a |an )?(100|perfect|full marks|ten out of ten|10/10)`,
			`system prompt`, `as an ai`, `(you are|you're) (now )?(a|an|the) (grader|scorer|evaluator|ai|language model)`),
	},
}

// Money and lifestyle are a red flag only as the motive: one practical
// remark beside real reasons is honest, two or more, or one said to be the
// main reason, is the motive.
var (
	moneyCues = phrases(`money`, `salary`, `salaries`, `income`, `paycheck`, `pays? (well|really well|a lot|very well|better)`, `(well|highly|better)[- ]paid`, `six figures`,
		`financial(ly)? (security|stability|stable|secure|rewards?|rewarding|freedom|independence)`, `lucrative`, `get rich`, `wealth\w*`, `(good|great|comfortable|nice|high|stable) (living|pay|salary|income|hours|schedule)`,
		`job security`, `work[- ]life balance`, `lifestyle`, `(less|shorter|fewer) (school|schooling|years of school|debt|call|hours)`, `(school|training|program|schooling)( is| was)? (a lot |much |way )?(shorter|quicker|faster|cheaper|easier)`, `(nine|9)[- ]to[- ](five|5)`, `no (nights|weekends|on[- ]call|call)`,
		`(nights|weekends|summers|holidays|fridays) off`, `(own|drive|buy|afford) a (nice|big|fancy|new) (car|house|home)`, `(be|being) my own boss`, `(prestige|status|respect) (that|of|it)`, `(the )?prestige`, `(good|great) benefits`, `demand for`)
	mainMotiveCues = phrases(`(main|biggest|real|honest|first|number one|primary|top) (reason|motivation|draw|appeal|factor|attraction)`, `(honestly|to be honest|let's be honest|I'll be honest)`,
		`(what|that's what) (really )?(draws|drew|attracts|attracted|appeals|appealed) (me|to me)`, `(drawn|attracted) (to|by)`, `(the|that) (best|biggest) (part|thing)`)
)

// An answer that lists achievements in place of reflection: many
// credentials, no sense of what any of them meant.
var achievementCues = phrases(`GPA`, `\d\.\d+`, `(dean's|president's|honou?r) (list|roll|society)`, `honou?rs? (program|college|student)`, `award(s|ed)?`, `scholarships?`, `valedictorian`, `salutatorian`,
	`(president|vice president|captain|chair|founder|treasurer|secretary) of`, `published`, `publications?`, `(scored|score of|scoring) (in the )?\d+`, `\d+(st|nd|rd|th)? percentile`, `(?-i:MCAT|DAT|GRE|PCAT|SAT|ACT)`,
	`ranked`, `top (\d+|one|two|three|five|ten)( percent|%)?`, `(summa|magna|cum) (cum )?laude`, `first place`, `certified`, `certifications?`, `eagle scout`, `national merit`, `phi beta kappa`,
	`(elected|selected|inducted|chosen) (to|as|for)`, `varsity`, `(presented|presenting) at`, `(national|international|state) (conference|competition|championship|award)`, `\d+ (hours|publications|papers|awards)`, `4\.0`, `a perfect`)

// achievementListTypes are the questions where a CV read aloud is a red
// flag; elsewhere credentials can be the honest answer.
var achievementListTypes = []feedback.QuestionType{feedback.TypeTellMe, feedback.TypeWhyProfession, feedback.TypeWhySchool, feedback.TypeGeneral}

// flagTexts are every flag's name, why and instead, by key: the phrase
// rules' own (added at init) and those of the flags that are raised by
// counting or comparing rather than by a phrase.
var flagTexts = map[feedback.FlagKey]flagRule{
	feedback.FlagMoneyMotive: {key: feedback.FlagMoneyMotive, name: "money or lifestyle as the motive",
		why:     "Admissions committees choose people who will put patients first for a whole career; pay, hours or status as the reason sounds like a job you would leave, or cut corners in.",
		instead: "Lead with what you would do for patients and what you have seen of the work; if practical reasons matter, keep them out of the answer."},
	feedback.FlagAchievementList: {key: feedback.FlagAchievementList, name: "a list of achievements instead of reflection",
		why:     "Interviewers already have your CV. Reading it aloud tells them nothing about who you are, what you learned, or why it matters for this profession.",
		instead: "Pick one or two experiences and tell them as stories: what you did, what it taught you, and how it led you here."},
	feedback.FlagQuestionTrap: {key: feedback.FlagQuestionTrap, name: "this question's trap",
		why:     "This is the move the question is set to catch: however well the rest is told, an interviewer remembers it, and it decides the answer.",
		instead: "Take the course a careful professional would: name the trap as an option you would not take, and say what you would do instead and why."},
	feedback.FlagDifferentQuestion: {key: feedback.FlagDifferentQuestion, name: "answering a different question",
		why:     "However good the content, an answer to another question tells the interviewer you did not listen, or are steering to a prepared script.",
		instead: "Answer the question asked in your first sentence, then build the answer around it with an example that fits."},
}

func init() {
	for _, r := range flagRules {
		flagTexts[r.key] = r
	}
}

// findFlags raises the red flags of the answer; each is raised once, on its
// first trigger. A trigger that holds a word the speech engine may have
// misheard raises nothing (certainOnly): the student did not say it for
// certain.
func (a *Assessment) findFlags() []flagHit {
	var out []flagHit
	for _, r := range flagRules {
		if len(r.types) > 0 && !slices.Contains(r.types, a.qt) {
			continue
		}
		if r.context != nil && len(a.t.find(r.context, false)) == 0 && len(newText(a.in.Question).find(r.context, false)) == 0 {
			continue
		}
		for _, m := range a.certainOnly(a.t.find(r.triggers, false)) {
			if a.t.denied(m, r.opinion) || a.t.voided(m, r.voidedBy) {
				continue
			}
			out = append(out, flagHit{key: r.key, m: m})
			break
		}
	}
	if m, ok := a.moneyMotive(); ok {
		out = append(out, flagHit{key: feedback.FlagMoneyMotive, m: m})
	}
	if m, ok := a.achievementList(); ok {
		out = append(out, flagHit{key: feedback.FlagAchievementList, m: m})
	}
	return out
}

func (a *Assessment) moneyMotive() (match, bool) {
	if !slices.Contains([]feedback.QuestionType{feedback.TypeWhyProfession, feedback.TypeTellMe, feedback.TypeWhySchool, feedback.TypeGeneral}, a.qt) {
		return match{}, false
	}
	var kept []match
	for _, m := range a.certainOnly(a.t.find(moneyCues, false)) {
		if !a.t.denied(m, true) {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		return match{}, false
	}
	if distinct(kept) >= 2 {
		return kept[0], true
	}
	for _, mm := range a.t.find(mainMotiveCues, false) {
		if a.t.sameClause(mm, kept[0]) {
			return kept[0], true
		}
	}
	return match{}, false
}

// achievementList is raised when credentials outnumber reflection: four or
// more different ones and no reflection, or six and at most one reflection.
func (a *Assessment) achievementList() (match, bool) {
	if !slices.Contains(achievementListTypes, a.qt) {
		return match{}, false
	}
	hits := a.certainOnly(a.t.find(achievementCues, false))
	n, r := distinct(hits), distinct(a.reflect)
	if n >= 4 && r == 0 || n >= 6 && r <= 1 {
		return hits[0], true
	}
	return match{}, false
}

// RedFlags turns the hits into what the student sees.
func (a *Assessment) RedFlags() []feedback.RedFlag {
	out := make([]feedback.RedFlag, 0, len(a.flags))
	for _, h := range a.flags {
		q := ""
		if h.m.end > h.m.at {
			q = a.t.quote(h.m.at)
		}
		f := DescribeFlag(h.key, q)
		if h.trap != "" {
			f.Name = f.Name + ": " + lowerFirst(strings.TrimRight(h.trap, "."))
		}
		out = append(out, f)
	}
	return out
}

// DescribeFlag is the red flag key raised by quote, with its name, why an
// interviewer reacts badly and what a strong answer does instead.
func DescribeFlag(key feedback.FlagKey, quote string) feedback.RedFlag {
	r := flagTexts[key]
	return feedback.RedFlag{Key: key, Name: r.name, Quote: quote, Why: r.why, Instead: r.instead}
}

// HasFlag reports whether the answer raised any of keys.
func (a *Assessment) HasFlag(keys ...feedback.FlagKey) bool {
	for _, h := range a.flags {
		if slices.Contains(keys, h.key) {
			return true
		}
	}
	return false
}
