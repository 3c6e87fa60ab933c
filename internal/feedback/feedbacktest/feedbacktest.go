// Package feedbacktest holds answers written for the feedback engines'
// tests (not taken from the calibration benchmark), shared by the rubric,
// the LLM engine and the CLI.
package feedbacktest

import "github.com/whitecoat/whitecoat/internal/feedback"

// StarAnswer is a behavioural answer written for these tests (not taken from
// the calibration benchmark): situation, task, actions, result, reflection,
// with three fillers.
const StarAnswer = `During my second summer as a dental assistant at a community clinic in Dayton, a nine-year-old boy named Marcus refused to open his mouth for his filling and his mother was close to tears. My job was to get him calm enough for Dr. Shah to work without restraining him. I, um, knelt down to his eye level, asked him what scared him, and he told me, um, the drill sounded like a monster. So, um, I showed him the handpiece, let him hold the suction and gave it a silly name, and we agreed he could raise his hand whenever he needed a break. As a result, he sat through the whole filling, and at his next visit he asked for me by name. I learned that a frightened patient needs to feel some control, and I now always ask what worries a patient before I explain anything.`

// StarInput asks StarAnswer's question of transcript, timed at a minute.
func StarInput(transcript string) feedback.Input {
	return feedback.Input{
		Profession: "dental",
		Question:   "Tell me about a time you helped a patient through a difficult situation.",
		Subtag:     "Behavioral",
		Transcript: transcript,
		Delivery:   &feedback.Delivery{DurationSeconds: 60},
	}
}

// OverrideAndHide is a fluent answer to an ethical scenario that overrides
// a refusal and hides it: two red flags.
const OverrideAndHide = `The central issue here is autonomy versus beneficence. Mr. Lopez is an adult with capacity who has refused the transfusion for religious reasons, and I would first want to understand his reasons and make sure he has all the information. I would sit down with him privately, explain the risks clearly in plain language, and listen to his concerns. However, if his hemoglobin kept dropping, I think the right thing is to protect his life, so I would give the transfusion while he was sedated for the procedure. Afterwards I wouldn't mention it to him or his family, because it would only upset them and the outcome was good. I would document the procedure carefully and follow up with the team to make sure he recovered well. Ultimately, the principle of beneficence means saving his life comes first.`

// ConciseConfidentiality is a short, strong answer to an ethical scenario
// about a pregnant teenager's confidence.
const ConciseConfidentiality = `The tension is between her confidentiality and her safety. I'd first find out more in private: how far along she is, whether she's safe at home, and who supports her. In most states she can consent to pregnancy care herself, so I'd keep her confidence, because breaking it could drive her away from care. I'd encourage her to involve a trusted adult and offer to be there when she does. If I learned of abuse, I'd explain that I must report it. I'd document it and schedule a follow-up.`

// FlagKeys are the keys of the red flags fb raises.
func FlagKeys(fb feedback.Feedback) []string {
	var keys []string
	for _, f := range fb.RedFlags {
		keys = append(keys, string(f.Key))
	}
	return keys
}
