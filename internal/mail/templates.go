package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"unicode"
	"unicode/utf8"
)

// The emails are short on purpose: one sentence of context, one link, and
// what to do if the reader did not ask for it.
const (
	verifyText = `{{.Greeting}}

Welcome to Whitecoat. Confirm your email address to unlock interview practice:

{{.Link}}

The link works for {{.Valid}}. If you did not create a Whitecoat account, ignore this email.
`
	verifyHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Welcome to Whitecoat. Confirm your email address to unlock interview practice:</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Confirm my email</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>The link works for {{.Valid}}. If you did not create a Whitecoat account, ignore this email.</p>
</body></html>`
	resetText = `{{.Greeting}}

Someone (hopefully you) asked to reset your Whitecoat password. Choose a new one here:

{{.Link}}

The link works for {{.Valid}} and only once. If you did not ask for this, ignore this email: your password stays as it is.
`
	resetHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Someone (hopefully you) asked to reset your Whitecoat password. Choose a new one here:</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Reset my password</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>The link works for {{.Valid}} and only once. If you did not ask for this, ignore this email: your password stays as it is.</p>
</body></html>`
	signupAttemptText = `{{.Greeting}}

Someone just tried to create a Whitecoat account with this email address, which already has one. Nothing was changed.

If it was you, log in here:

{{.Link}}

Forgot your password? Choose a new one here: {{.ResetLink}}

If it was not you, ignore this email: your account is safe.
`
	signupAttemptHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Someone just tried to create a Whitecoat account with this email address, which already has one. Nothing was changed.</p>
<p>If it was you, log in here:</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Log in</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>Forgot your password? <a href="{{.ResetLink}}">Choose a new one</a>.</p>
<p>If it was not you, ignore this email: your account is safe.</p>
</body></html>`
)

// The Premium emails: a receipt when a pass is bought, and one reminder
// a week before it ends. Refunds are the same window everywhere
// (billing.RefundDays).
const (
	receiptText = `{{.Greeting}}

Thank you for buying a Whitecoat Premium pass.

Amount paid: {{.Amount}}
Premium starts: {{.Start}}
Premium ends: {{.End}}

This is a one-time payment: the pass does not renew, and nothing more will be charged.

Refunds: if Whitecoat is not for you, write to {{.Support}} within {{.RefundDays}} days of your purchase for a full refund.

Practice now: {{.Link}}
`
	receiptHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Thank you for buying a Whitecoat Premium pass.</p>
<table style="border-collapse:collapse">
<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0">Amount paid</th><td>{{.Amount}}</td></tr>
<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0">Premium starts</th><td>{{.Start}}</td></tr>
<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0">Premium ends</th><td>{{.End}}</td></tr>
</table>
<p>This is a one-time payment: the pass does not renew, and nothing more will be charged.</p>
<p>Refunds: if Whitecoat is not for you, write to <a href="mailto:{{.Support}}">{{.Support}}</a> within {{.RefundDays}} days of your purchase for a full refund.</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Practice now</a></p>
</body></html>`
	reminderText = `{{.Greeting}}

Your Whitecoat Premium pass ends on {{.End}}. It does not renew by itself: after that day, practice and your saved sessions lock until you buy a new pass.

Buy a new one-year pass when you are ready: {{.Link}}

Questions? Write to {{.Support}}.
`
	reminderHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Your Whitecoat Premium pass ends on <strong>{{.End}}</strong>. It does not renew by itself: after that day, practice and your saved sessions lock until you buy a new pass.</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">See Premium</a></p>
<p>Questions? Write to <a href="mailto:{{.Support}}">{{.Support}}</a>.</p>
</body></html>`
)

var (
	receiptTextT  = texttemplate.Must(texttemplate.New("receipt").Parse(receiptText))
	receiptHTMLT  = htmltemplate.Must(htmltemplate.New("receipt").Parse(receiptHTML))
	reminderTextT = texttemplate.Must(texttemplate.New("reminder").Parse(reminderText))
	reminderHTMLT = htmltemplate.Must(htmltemplate.New("reminder").Parse(reminderHTML))
)

// Pass describes a Premium pass in an email; dates and amount are
// already written as people read them.
type Pass struct {
	Greeting string
	Amount   string
	Start    string
	End      string
	Support  string
	Link     string
	// RefundDays is how long after buying a pass a full refund is given.
	RefundDays int
}

// PassReceipt is the receipt for a bought pass; link opens the app.
func PassReceipt(to, name string, p Pass) (Message, error) {
	p.Greeting = greeting(name)
	return render(to, "Your Whitecoat Premium pass", p.Link, p, receiptTextT, receiptHTMLT)
}

// PassReminder warns a week ahead that a pass ends; link is the pricing page.
func PassReminder(to, name string, p Pass) (Message, error) {
	p.Greeting = greeting(name)
	return render(to, "Your Whitecoat Premium pass ends on "+p.End, p.Link, p, reminderTextT, reminderHTMLT)
}

var (
	verifyTextT = texttemplate.Must(texttemplate.New("verify").Parse(verifyText))
	verifyHTMLT = htmltemplate.Must(htmltemplate.New("verify").Parse(verifyHTML))
	resetTextT  = texttemplate.Must(texttemplate.New("reset").Parse(resetText))
	resetHTMLT  = htmltemplate.Must(htmltemplate.New("reset").Parse(resetHTML))

	signupAttemptTextT = texttemplate.Must(texttemplate.New("signup-attempt").Parse(signupAttemptText))
	signupAttemptHTMLT = htmltemplate.Must(htmltemplate.New("signup-attempt").Parse(signupAttemptHTML))
)

type linkData struct {
	Greeting string
	Link     string
	Valid    string
	// ResetLink is the forgot-password page, for emails that offer it
	// besides their one action.
	ResetLink string
}

// VerifyEmail is the message carrying an email-confirmation link.
func VerifyEmail(to, name, link, valid string) (Message, error) {
	return render(to, "Confirm your Whitecoat email", link, linkData{Greeting: greeting(name), Link: link, Valid: valid}, verifyTextT, verifyHTMLT)
}

// ResetPassword is the message carrying a password-reset link.
func ResetPassword(to, name, link, valid string) (Message, error) {
	return render(to, "Reset your Whitecoat password", link, linkData{Greeting: greeting(name), Link: link, Valid: valid}, resetTextT, resetHTMLT)
}

// SignupAttempt tells an account's owner that someone tried to sign up
// with their address, with links to log in or reset the password: sign-up
// itself answers the same for every address, so this email is how the
// owner finds out.
func SignupAttempt(to, name, loginLink, resetLink string) (Message, error) {
	return render(to, "Someone tried to sign up with your email", loginLink,
		linkData{Greeting: greeting(name), Link: loginLink, ResetLink: resetLink}, signupAttemptTextT, signupAttemptHTMLT)
}

// Anyone can sign up with someone else's address, so the name typed at
// signup ends up in an email to a stranger: "Claim your refund at
// http://evil.example/x" would arrive from us, link and all. A name is
// greeted only when it looks like a name — a few words of letters, spaces,
// apostrophes, hyphens and initials' full stops — so that no mail client
// can find a link, an address or a phone number in it; otherwise the
// greeting has no name.
const (
	maxGreetedRunes = 60
	maxGreetedWords = 6
)

func greeting(name string) string {
	if !looksLikeAName(name) {
		return "Hi,"
	}
	return "Hi " + name + ","
}

func looksLikeAName(name string) bool {
	if name == "" || utf8.RuneCountInString(name) > maxGreetedRunes || len(strings.Fields(name)) > maxGreetedWords {
		return false
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r), unicode.Is(unicode.Mn, r), r == ' ', r == '\'', r == '’', r == '-':
		case r == '.':
			// "J. R. Smith" and "Jr." but never "evil.example".
			if i+1 < len(runes) && runes[i+1] != ' ' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func render(to, subject, link string, data any, text *texttemplate.Template, html *htmltemplate.Template) (Message, error) {
	var t, h bytes.Buffer
	if err := text.Execute(&t, data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s: %w", subject, err)
	}
	if err := html.Execute(&h, data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s: %w", subject, err)
	}
	return Message{To: to, Subject: subject, Text: t.String(), HTML: h.String(), Link: link}, nil
}

const (
	accountDeletedText = `{{.Greeting}}

Your Whitecoat account and everything in it — your practice sessions, answers, feedback and saved sessions — have been deleted, and every sign-in has ended.

{{.Kept}}

If you did not ask for this, write to us by replying to this email.
`
	accountDeletedHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>Your Whitecoat account and everything in it — your practice sessions, answers, feedback and saved sessions — have been deleted, and every sign-in has ended.</p>
<p>{{.Kept}}</p>
<p>If you did not ask for this, write to us by replying to this email.</p>
</body></html>`
)

var (
	accountDeletedTextT = texttemplate.Must(texttemplate.New("account-deleted").Parse(accountDeletedText))
	accountDeletedHTMLT = htmltemplate.Must(htmltemplate.New("account-deleted").Parse(accountDeletedHTML))
)

// AccountDeleted confirms that an account was deleted; kept says which
// records the law made us keep.
func AccountDeleted(to, name, kept string) (Message, error) {
	data := struct{ Greeting, Kept string }{greeting(name), kept}
	return render(to, "Your Whitecoat account has been deleted", "", data, accountDeletedTextT, accountDeletedHTMLT)
}

const (
	commentArrivedText = `{{.Greeting}}

{{.Reviewer}} left a comment on your saved session "{{.Session}}". Read it here:

{{.Link}}

You get this email because you shared the session. Turn the link off on the session's page to stop comments.
`
	commentArrivedHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>{{.Greeting}}</p>
<p>{{.Reviewer}} left a comment on your saved session “{{.Session}}”.</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Read the comment</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>You get this email because you shared the session. Turn the link off on the session's page to stop comments.</p>
</body></html>`
)

var (
	commentArrivedTextT = texttemplate.Must(texttemplate.New("comment-arrived").Parse(commentArrivedText))
	commentArrivedHTMLT = htmltemplate.Must(htmltemplate.New("comment-arrived").Parse(commentArrivedHTML))
)

// CommentArrived tells a student that the reviewer they shared a saved
// session with commented on it; link opens the session. The reviewer's
// name was typed by the student, but is named only when it looks like a
// name, as greetings are; the comment's words stay in the app.
func CommentArrived(to, name, reviewer, session, link string) (Message, error) {
	if !looksLikeAName(reviewer) {
		reviewer = "Your reviewer"
	}
	data := struct{ Greeting, Reviewer, Session, Link string }{greeting(name), reviewer, session, link}
	return render(to, reviewer+" commented on your Whitecoat session", link, data, commentArrivedTextT, commentArrivedHTMLT)
}
