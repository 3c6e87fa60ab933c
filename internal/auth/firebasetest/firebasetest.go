// Package firebasetest stands in for Firebase Authentication in tests: a
// key pair made in the test, its public half published as a JWKS the way
// Google publishes its own, and ID tokens signed with it.
package firebasetest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

// Issuer is the issuer of a project's ID tokens.
func Issuer(project string) string { return "https://securetoken.google.com/" + project }

// Keys is one signing key and the JWKS server that publishes it.
type Keys struct {
	// URL serves the JWKS.
	URL     string
	Project string
	private jwk.Key
}

// Start publishes a new RS256 key under kid for project's tokens.
func Start(t *testing.T, project, kid string) *Keys {
	t.Helper()
	raw, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	private, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	public, err := jwk.Import(&raw.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []jwk.Key{private, public} {
		if err := k.Set(jwk.KeyIDKey, kid); err != nil {
			t.Fatal(err)
		}
		if err := k.Set(jwk.AlgorithmKey, jwa.RS256()); err != nil {
			t.Fatal(err)
		}
	}
	set := jwk.NewSet()
	if err := set.AddKey(public); err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(server.Close)
	return &Keys{URL: server.URL, Project: project, private: private}
}

// Token signs an ID token as Firebase would for a verified
// fran@example.com, issued (and signed in: auth_time) a minute before now;
// edit changes its claims.
func (k *Keys) Token(t *testing.T, now time.Time, edit func(b *jwt.Builder)) string {
	t.Helper()
	return k.sign(t, k.build(t, now, edit))
}

// TokenWithout signs the token Token would, without the named claim.
func (k *Keys) TokenWithout(t *testing.T, now time.Time, claim string) string {
	t.Helper()
	tok := k.build(t, now, nil)
	if err := tok.Remove(claim); err != nil {
		t.Fatal(err)
	}
	return k.sign(t, tok)
}

func (k *Keys) build(t *testing.T, now time.Time, edit func(b *jwt.Builder)) jwt.Token {
	t.Helper()
	b := jwt.NewBuilder().Issuer(Issuer(k.Project)).Audience([]string{k.Project}).Subject("firebase-uid-1").
		IssuedAt(now.Add(-time.Minute)).Expiration(now.Add(time.Hour)).Claim("auth_time", now.Add(-time.Minute).Unix()).
		Claim("email", "Fran@Example.com").Claim("email_verified", true).Claim("name", "Fran Firebase")
	if edit != nil {
		edit(b)
	}
	tok, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (k *Keys) sign(t *testing.T, tok jwt.Token) string {
	t.Helper()
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.RS256(), k.private))
	if err != nil {
		t.Fatal(err)
	}
	return string(signed)
}
