package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
)

// The emails are short on purpose: one sentence of context, one link, and
// what to do if the reader did not ask for it.
const (
	verifyText = `Hi {{.Name}},

Welcome to Whitecoat. Confirm your email address to unlock interview practice:

{{.Link}}

The link works for {{.Valid}}. If you did not create a Whitecoat account, ignore this email.
`
	verifyHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>Hi {{.Name}},</p>
<p>Welcome to Whitecoat. Confirm your email address to unlock interview practice:</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Confirm my email</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>The link works for {{.Valid}}. If you did not create a Whitecoat account, ignore this email.</p>
</body></html>`
	resetText = `Hi {{.Name}},

Someone (hopefully you) asked to reset your Whitecoat password. Choose a new one here:

{{.Link}}

The link works for {{.Valid}} and only once. If you did not ask for this, ignore this email: your password stays as it is.
`
	resetHTML = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p>Hi {{.Name}},</p>
<p>Someone (hopefully you) asked to reset your Whitecoat password. Choose a new one here:</p>
<p><a href="{{.Link}}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">Reset my password</a></p>
<p>Or paste this link into your browser: {{.Link}}</p>
<p>The link works for {{.Valid}} and only once. If you did not ask for this, ignore this email: your password stays as it is.</p>
</body></html>`
)

var (
	verifyTextT = texttemplate.Must(texttemplate.New("verify").Parse(verifyText))
	verifyHTMLT = htmltemplate.Must(htmltemplate.New("verify").Parse(verifyHTML))
	resetTextT  = texttemplate.Must(texttemplate.New("reset").Parse(resetText))
	resetHTMLT  = htmltemplate.Must(htmltemplate.New("reset").Parse(resetHTML))
)

type linkData struct {
	Name  string
	Link  string
	Valid string
}

// VerifyEmail is the message carrying an email-confirmation link.
func VerifyEmail(to, name, link, valid string) (Message, error) {
	return render(to, "Confirm your Whitecoat email", linkData{name, link, valid}, verifyTextT, verifyHTMLT)
}

// ResetPassword is the message carrying a password-reset link.
func ResetPassword(to, name, link, valid string) (Message, error) {
	return render(to, "Reset your Whitecoat password", linkData{name, link, valid}, resetTextT, resetHTMLT)
}

func render(to, subject string, data linkData, text *texttemplate.Template, html *htmltemplate.Template) (Message, error) {
	var t, h bytes.Buffer
	if err := text.Execute(&t, data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s: %w", subject, err)
	}
	if err := html.Execute(&h, data); err != nil {
		return Message{}, fmt.Errorf("mail: render %s: %w", subject, err)
	}
	return Message{To: to, Subject: subject, Text: t.String(), HTML: h.String(), Link: data.Link}, nil
}
