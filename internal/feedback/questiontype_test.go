package feedback

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		in   Input
		want QuestionType
	}{
		{Input{Big3: Big3TellMeAboutYourself, Question: "Anything"}, TypeTellMe},
		{Input{Subtag: "ethical", Question: "Tell me about a time you led a team."}, TypeEthical},
		{Input{Subtag: "Behavioural", Question: "x"}, TypeBehavioral},
		{Input{Question: "Tell me about yourself."}, TypeTellMe},
		{Input{Question: "Why do you want to become a pharmacist?"}, TypeWhyProfession},
		{Input{Question: "Why PA and not medicine?"}, TypeWhyProfession},
		{Input{Question: "Why our school?"}, TypeWhySchool},
		{Input{Question: "Describe a time you worked on a team."}, TypeTeamwork},
		{Input{Question: "Tell me about a time you led others."}, TypeLeadership},
		{Input{Question: "How would you break bad news to a family?"}, TypeCommunication},
		{Input{Question: "A patient refuses treatment. What would you do?"}, TypeEthical},
		{Input{Question: "Tell me about a time you made a mistake."}, TypeBehavioral},
		{Input{Question: "What is your favourite book?"}, TypeGeneral},
	}
	for _, tt := range tests {
		if got := Classify(tt.in); got != tt.want {
			t.Errorf("classify(%+v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
