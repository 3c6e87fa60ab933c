package mail

import (
	"strings"
	"testing"
)

func TestNamesAreGreetedOnlyWhenNoLinkCanHideInThem(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"Ana Lee", "Hi Ana Lee,"},
		{"J. R. Smith Jr.", "Hi J. R. Smith Jr.,"},
		{"Zoë O’Brien-Ngũgĩ", "Hi Zoë O’Brien-Ngũgĩ,"},
		{"José María de la Cruz", "Hi José María de la Cruz,"},
		{"Claim your refund at http://evil.example/x", "Hi,"},
		{"Refund evil.example", "Hi,"},
		{"www dot evil", "Hi www dot evil,"},
		{"call 555 0100", "Hi,"},
		{"mail me at x@evil.example", "Hi,"},
		{"Win a prize now from our partner site today", "Hi,"},
		{"<b>Ana</b>", "Hi,"},
		{"", "Hi,"},
	} {
		if got := greeting(tc.name); got != tc.want {
			t.Errorf("greeting(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The finding: a name carrying a link reached the verification email sent
// to any address typed at signup.
func TestAVerificationEmailCarriesNoLinkFromTheName(t *testing.T) {
	msg, err := VerifyEmail("victim@example.com", "Claim your refund at http://evil.example/x", "https://whitecoat.test/verify-email?token=t", "3 days")
	if err != nil {
		t.Fatal(err)
	}
	for part, body := range map[string]string{"text": msg.Text, "html": msg.HTML} {
		if strings.Contains(body, "evil.example") || strings.Contains(body, "refund") {
			t.Errorf("the %s part repeats the name:\n%s", part, body)
		}
		if !strings.Contains(body, "Hi,") {
			t.Errorf("the %s part lost its greeting:\n%s", part, body)
		}
	}
}

func TestTheSignupAttemptEmailOffersLoginAndReset(t *testing.T) {
	msg, err := SignupAttempt("owner@example.com", "Ana Lee", "https://whitecoat.test/login", "https://whitecoat.test/forgot-password")
	if err != nil {
		t.Fatal(err)
	}
	for part, body := range map[string]string{"text": msg.Text, "html": msg.HTML} {
		for _, want := range []string{"Hi Ana Lee,", "https://whitecoat.test/login", "https://whitecoat.test/forgot-password", "tried to create"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s part lacks %q:\n%s", part, want, body)
			}
		}
	}
	if msg.Link != "https://whitecoat.test/login" {
		t.Errorf("action link %q", msg.Link)
	}
}

// The Premium emails state the pass's terms, the 7-day refund window and
// the support address, and greet only safe names.
func TestPassEmailsStateTheTerms(t *testing.T) {
	pass := Pass{Amount: "$29.00", Start: "September 10, 2026", End: "September 10, 2027", Support: "support@whitecoat.test", Link: "https://whitecoat.test/dashboard", RefundDays: 7}
	receipt, err := PassReceipt("ana@example.com", "Ana <b>Lee</b>", pass)
	if err != nil {
		t.Fatal(err)
	}
	reminder, err := PassReminder("ana@example.com", "Ana Lee", pass)
	if err != nil {
		t.Fatal(err)
	}
	if receipt.Subject != "Your Whitecoat Premium pass" || reminder.Subject != "Your Whitecoat Premium pass ends on September 10, 2027" {
		t.Fatalf("subjects %q, %q", receipt.Subject, reminder.Subject)
	}
	for part, body := range map[string]string{"receipt text": receipt.Text, "receipt html": receipt.HTML} {
		for _, want := range []string{"Hi,", "$29.00", "September 10, 2026", "September 10, 2027", "within 7 days", "support@whitecoat.test", "does not renew"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s lacks %q:\n%s", part, want, body)
			}
		}
		if strings.Contains(body, "<b>Lee") {
			t.Errorf("the %s repeats the unsafe name:\n%s", part, body)
		}
	}
	for part, body := range map[string]string{"reminder text": reminder.Text, "reminder html": reminder.HTML} {
		for _, want := range []string{"Hi Ana Lee,", "September 10, 2027", "does not renew", "support@whitecoat.test"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s lacks %q:\n%s", part, want, body)
			}
		}
	}
}

// A reviewer's name is typed by the student and reaches their inbox in
// the subject: one that is not name-like is not repeated; the email links
// to the session, never to anything from the comment.
func TestTheCommentEmailNamesOnlyANameLikeReviewer(t *testing.T) {
	link := "https://whitecoat.test/dental/summary?saved=s1"
	msg, err := CommentArrived("ana@example.com", "Ana Lee", "Dr. Rivera", "Clinic story", link)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Subject != "Dr. Rivera commented on your Whitecoat session" || msg.Link != link ||
		!strings.Contains(msg.Text, `Dr. Rivera left a comment on your saved session "Clinic story"`) || !strings.Contains(msg.HTML, link) {
		t.Errorf("message %+v", msg)
	}
	msg, err = CommentArrived("ana@example.com", "Ana Lee", "see http://evil.example", "Clinic story", link)
	if err != nil {
		t.Fatal(err)
	}
	for part, body := range map[string]string{"subject": msg.Subject, "text": msg.Text, "html": msg.HTML} {
		if strings.Contains(body, "evil.example") || !strings.Contains(body, "Your reviewer") {
			t.Errorf("the %s part:\n%s", part, body)
		}
	}
}
