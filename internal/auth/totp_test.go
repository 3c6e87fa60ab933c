package auth

import (
	"encoding/base32"
	"net/url"
	"testing"
	"time"
)

// RFC 6238 Appendix B, SHA-1 rows: the ASCII secret "12345678901234567890"
// gives these 8-digit codes at these times.
func TestTOTPMatchesRFC6238Vectors(t *testing.T) {
	t.Parallel()
	secret := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte("12345678901234567890"))
	for _, v := range []struct {
		unix int64
		code string
	}{
		{59, "94287082"}, {1111111109, "07081804"}, {1111111111, "14050471"},
		{1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
	} {
		got, err := totpCode(secret, totpStep(time.Unix(v.unix, 0)), 8)
		if err != nil || got != v.code {
			t.Errorf("T=%d: code %q (%v), want %s", v.unix, got, err, v.code)
		}
	}
}

func TestTOTPAcceptsOneStepOfSkewOnly(t *testing.T) {
	t.Parallel()
	secret := newTOTPSecret()
	now := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		offset time.Duration
		ok     bool
	}{{0, true}, {-30 * time.Second, true}, {30 * time.Second, true}, {-60 * time.Second, false}, {61 * time.Second, false}} {
		code, _ := totpCode(secret, totpStep(now.Add(tc.offset)), totpDigits)
		step, err := matchTOTP(secret, code, now)
		if err != nil || (step != 0) != tc.ok {
			t.Errorf("code from %v away: step %d, err %v; want accepted=%v", tc.offset, step, err, tc.ok)
		}
	}
	if step, _ := matchTOTP(secret, "12345", now); step != 0 {
		t.Error("a 5-digit code matched")
	}
}

func TestTOTPURI(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(totpURI("JBSWY3DPEHPK3PXP", "ada@example.com"))
	if err != nil || u.Scheme != "otpauth" || u.Host != "totp" || u.Path != "/Whitecoat:ada@example.com" ||
		u.Query().Get("secret") != "JBSWY3DPEHPK3PXP" || u.Query().Get("issuer") != "Whitecoat" || u.Query().Get("digits") != "6" {
		t.Fatalf("uri %v (%v)", u, err)
	}
}
