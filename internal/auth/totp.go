package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP (RFC 6238) with the parameters every authenticator app supports:
// HMAC-SHA1, 6 digits, 30-second steps. A code is accepted for its own step
// and one step either side, so a phone clock a few seconds off still works.
const (
	totpPeriod     = 30 * time.Second
	totpDigits     = 6
	totpSkewSteps  = 1
	totpSecretSize = 20 // 160 bits, the key length RFC 4226 recommends
	totpIssuer     = "Whitecoat"
)

var totpEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newTOTPSecret returns a random secret in the base32 form apps accept.
func newTOTPSecret() string {
	b := make([]byte, totpSecretSize)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return totpEncoding.EncodeToString(b)
}

// totpStep is the time step t falls in.
func totpStep(t time.Time) int64 { return t.Unix() / int64(totpPeriod/time.Second) }

// TOTPCode is the code an authenticator app holding secret shows at time
// at (tests play the app with it).
func TOTPCode(secret string, at time.Time) (string, error) {
	return totpCode(secret, totpStep(at), totpDigits)
}

// totpCode is the code for one step (RFC 4226's HOTP on the step counter).
func totpCode(secret string, step int64, digits int) (string, error) {
	key, err := totpEncoding.DecodeString(strings.ToUpper(secret))
	if err != nil {
		return "", fmt.Errorf("auth: totp secret: %w", err)
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	offset := sum[len(sum)-1] & 0x0f
	value := binary.BigEndian.Uint32(sum[offset:]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, value%mod), nil
}

// matchTOTP returns the step code matches at now, or 0 when it matches none
// within the allowed skew.
func matchTOTP(secret, code string, now time.Time) (int64, error) {
	if len(code) != totpDigits {
		return 0, nil
	}
	current := totpStep(now)
	for step := current - totpSkewSteps; step <= current+totpSkewSteps; step++ {
		want, err := totpCode(secret, step, totpDigits)
		if err != nil {
			return 0, err
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, nil
		}
	}
	return 0, nil
}

// totpURI is the otpauth:// address authenticator apps read from a QR code
// or a link, labelled with the account's email.
func totpURI(secret, email string) string {
	q := url.Values{"secret": {secret}, "issuer": {totpIssuer}, "algorithm": {"SHA1"},
		"digits": {fmt.Sprint(totpDigits)}, "period": {fmt.Sprint(int(totpPeriod / time.Second))}}
	return (&url.URL{Scheme: "otpauth", Host: "totp", Path: "/" + totpIssuer + ":" + email, RawQuery: q.Encode()}).String()
}
