package config

import (
	"os"
	"strings"
	"testing"
)

func TestDefaultsLoad(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DatabaseURL != "data/whitecoat.db" || c.BaseURL.String() != "http://localhost:8080" || c.SMTPURL != nil || c.SecureCookies() {
		t.Fatalf("defaults: %+v", c)
	}
}

// TestDevCheckoutIsExplicit: the development checkout (passes for
// nothing) is off by default, a loopback BASE_URL included, and cannot be
// turned on next to a Stripe key.
func TestDevCheckoutIsExplicit(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"BASE_URL": "http://127.0.0.1:8080"}, false},
		{map[string]string{"DEV_CHECKOUT": "1"}, true},
	} {
		c, err := Load(func(k string) string { return tc.env[k] })
		if err != nil || c.Payments.DevCheckout != tc.want {
			t.Errorf("%v: DevCheckout %v (%v), want %v", tc.env, c.Payments.DevCheckout, err, tc.want)
		}
	}
	env := map[string]string{"DEV_CHECKOUT": "1", "STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"}
	_, err := Load(func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "DEV_CHECKOUT") || !strings.Contains(err.Error(), "STRIPE_SECRET_KEY") {
		t.Fatalf("DEV_CHECKOUT=1 with a Stripe key: %v", err)
	}
	env = map[string]string{"DEV_CHECKOUT": "yes"}
	if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "DEV_CHECKOUT") {
		t.Fatalf("DEV_CHECKOUT=yes: %v", err)
	}
}

func TestEveryBadValueIsNamed(t *testing.T) {
	env := map[string]string{
		"ADDR":                 "8080",
		"BASE_URL":             "localhost:8080",
		"SMTP_URL":             "http://mail.example.com",
		"MAIL_FROM":            "not an address",
		"SESSION_IDLE_TIMEOUT": "forever",
		"RATE_LIMIT_PER_IP":    "-3",
		"LOG_LEVEL":            "loud",
		"SPEECH_ENGINE":        "magic",
		"FEEDBACK_ENGINE":      "llm",
	}
	_, err := Load(func(k string) string { return env[k] })
	if err == nil {
		t.Fatal("bad configuration accepted")
	}
	for name := range env {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error does not name %s:\n%v", name, err)
		}
	}
}

func TestSMTPPasswordNeverInErrors(t *testing.T) {
	_, err := Load(func(k string) string {
		if k == "SMTP_URL" {
			return "ftp://user:hunter2secret@mail.example.com"
		}
		return ""
	})
	if err == nil || strings.Contains(err.Error(), "hunter2secret") {
		t.Fatalf("error %v leaks the SMTP password", err)
	}
}

// The README's configuration table must list every variable with the
// default the code uses.
func TestReadmeDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Vars {
		def := "(empty)"
		if v.Default != "" {
			def = "`" + v.Default + "`"
		}
		row := "| `" + v.Name + "` | " + def + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README lacks the row %q", row)
		}
	}
}
