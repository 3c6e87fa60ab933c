package auth

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

// Password length bounds: long enough to resist guessing, generous enough
// for passphrases and password managers, and short enough that hashing a
// maliciously long input stays cheap.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 256
)

// Argon2Params are the argon2id cost settings stored in each PHC string.
type Argon2Params struct {
	MemoryKiB   uint32
	Iterations  uint32
	Parallelism uint8
}

// DefaultArgon2 follows OWASP's minimum recommendation for argon2id.
var DefaultArgon2 = Argon2Params{MemoryKiB: 19456, Iterations: 2, Parallelism: 1}

const (
	saltLen = 16
	keyLen  = 32
)

//go:embed common_passwords.txt
var commonPasswordsFile string

var commonPasswords = func() map[string]struct{} {
	m := make(map[string]struct{})
	s := bufio.NewScanner(strings.NewReader(commonPasswordsFile))
	for s.Scan() {
		if w := strings.TrimSpace(s.Text()); w != "" && !strings.HasPrefix(w, "#") {
			m[strings.ToLower(w)] = struct{}{}
		}
	}
	return m
}()

// CheckPassword enforces length and refuses the most common passwords; it
// deliberately has no composition rules (NIST SP 800-63B).
func CheckPassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLength:
		return apperr.Invalid("password", "Password must be at least %d characters.", MinPasswordLength)
	case n > MaxPasswordLength:
		return apperr.Invalid("password", "Password must be at most %d characters.", MaxPasswordLength)
	}
	if _, common := commonPasswords[strings.ToLower(pw)]; common {
		return apperr.Invalid("password", "This password is too common. Please choose one that is harder to guess.")
	}
	return nil
}

// HashPassword returns an argon2id PHC string for pw.
func HashPassword(pw string, p Argon2Params) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, p.Iterations, p.MemoryKiB, p.Parallelism, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Iterations, p.Parallelism,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

var errBadHash = errors.New("auth: malformed password hash")

// VerifyPassword checks pw against a PHC string. needsRehash is true when
// the stored parameters are weaker than want, so login can upgrade them.
func VerifyPassword(pw, phc string, want Argon2Params) (ok, needsRehash bool, err error) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, false, errBadHash
	}
	var p Argon2Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Iterations, &p.Parallelism); err != nil {
		return false, false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, false, errBadHash
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) == 0 {
		return false, false, errBadHash
	}
	got := argon2.IDKey([]byte(pw), salt, p.Iterations, p.MemoryKiB, p.Parallelism, uint32(len(key)))
	if subtle.ConstantTimeCompare(got, key) != 1 {
		return false, false, nil
	}
	weaker := p.MemoryKiB < want.MemoryKiB || p.Iterations < want.Iterations || p.Parallelism != want.Parallelism || len(key) < keyLen
	return true, weaker, nil
}
