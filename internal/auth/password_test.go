package auth

import (
	"regexp"
	"strings"
	"testing"
)

func TestHashPasswordFormat(t *testing.T) {
	t.Parallel()
	phc, err := HashPassword("correct horse battery staple", DefaultArgon2)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`)
	m := re.FindStringSubmatch(phc)
	if m == nil {
		t.Fatalf("hash %q is not an argon2id PHC string with a 16-byte salt and 32-byte key", phc)
	}
	if m[1] < "19456" && len(m[1]) <= 5 || m[2] < "2" {
		t.Fatalf("parameters m=%s t=%s are below the baseline", m[1], m[2])
	}
	other, _ := HashPassword("correct horse battery staple", DefaultArgon2)
	if other == phc {
		t.Fatal("two hashes of one password are identical: the salt is not random")
	}
}

func TestVerifyPassword(t *testing.T) {
	t.Parallel()
	weak := Argon2Params{MemoryKiB: 8192, Iterations: 1, Parallelism: 1}
	weakHash, _ := HashPassword("s3cret-passphrase", weak)
	strongHash, _ := HashPassword("s3cret-passphrase", DefaultArgon2)
	for _, tc := range []struct {
		name          string
		password, phc string
		ok, rehash    bool
		wantErr       bool
	}{
		{"right password", "s3cret-passphrase", strongHash, true, false, false},
		{"wrong password", "s3cret-passphrasE", strongHash, false, false, false},
		{"weaker stored parameters", "s3cret-passphrase", weakHash, true, true, false},
		{"wrong password, weak hash", "nope", weakHash, false, false, false},
		{"not argon2id", "x", "$2a$10$abcdefghijklmnopqrstuv", false, false, true},
		{"garbage", "x", "$argon2id$v=19$m=x$$", false, false, true},
		{"empty key", "x", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$", false, false, true},
	} {
		ok, rehash, err := VerifyPassword(tc.password, tc.phc, DefaultArgon2)
		if ok != tc.ok || rehash != tc.rehash || (err != nil) != tc.wantErr {
			t.Errorf("%s: ok=%v rehash=%v err=%v, want %v %v err=%v", tc.name, ok, rehash, err, tc.ok, tc.rehash, tc.wantErr)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pw   string
		want string
	}{
		{"1234567", "at least 8"},
		{"12345678", "too common"},
		{"PassWord1", "too common"},
		{strings.Repeat("a", 257), "at most 256"},
		{strings.Repeat("a", 256), ""},
		{"kitchen-table-42", ""},
		{"ünïcødé pw", ""},
	} {
		err := CheckPassword(tc.pw)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckPassword(%.20q) = %v, want %q", tc.pw, err, tc.want)
		}
	}
}
