package httpx

import (
	"cmp"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientIPCountsProxiesFromTheRight(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48"), netip.MustParsePrefix("127.0.0.1/32")}
	xff := ProxyTrust{Header: "X-Forwarded-For"}
	listed := ProxyTrust{Header: "X-Forwarded-For", Proxies: proxies}
	realIP := ProxyTrust{Header: "X-Real-IP", Proxies: proxies}
	for _, tc := range []struct {
		name   string
		trust  ProxyTrust
		peer   string
		header []string // X-Forwarded-For lines, or X-Real-IP for realIP
		want   string
	}{
		{"no proxy: the peer", ProxyTrust{}, "198.51.100.7:4431", []string{"127.0.0.1"}, "198.51.100.7"},
		{"no proxy: IPv6 peer", ProxyTrust{}, "[2001:db8::7]:4431", nil, "2001:db8::7"},
		{"no proxy: IPv4-mapped peer", ProxyTrust{}, "[::ffff:198.51.100.7]:4431", nil, "198.51.100.7"},
		{"one proxy: its entry", xff, "127.0.0.1:1", []string{"198.51.100.7"}, "198.51.100.7"},
		{"one proxy: a spoofed left-most entry", xff, "127.0.0.1:1", []string{"127.0.0.1, 198.51.100.7"}, "198.51.100.7"},
		{"one proxy: spoofed header lines", xff, "127.0.0.1:1", []string{"127.0.0.1", "203.0.113.1, 198.51.100.7"}, "198.51.100.7"},
		{"one proxy: no header", xff, "10.0.0.2:1", nil, "10.0.0.2"},
		{"one proxy: an empty header", xff, "10.0.0.2:1", []string{" , "}, "10.0.0.2"},
		{"one proxy: garbage", xff, "10.0.0.2:1", []string{"198.51.100.7, unknown"}, "10.0.0.2"},
		{"one proxy: empty elements skipped", xff, "10.0.0.2:1", []string{"198.51.100.7,,"}, "198.51.100.7"},
		{"listed: a chain", listed, "10.0.0.2:1", []string{"127.0.0.1, 203.0.113.1, 198.51.100.7, 10.9.9.9"}, "198.51.100.7"},
		{"listed: a chain over header lines", listed, "10.0.0.2:1", []string{"127.0.0.1, 198.51.100.7", "10.9.9.9"}, "198.51.100.7"},
		{"listed: a peer that is no proxy", listed, "203.0.113.9:1", []string{"198.51.100.7"}, "203.0.113.9"},
		{"listed: garbage where the client should be", listed, "10.0.0.2:1", []string{"198.51.100.7, =1+1, 10.9.9.9"}, "10.9.9.9"},
		{"listed: only proxies", listed, "10.0.0.2:1", []string{"10.3.3.3, 10.9.9.9"}, "10.3.3.3"},
		{"listed: IPv6 with ports and brackets", listed, "[2001:db8:ffff::1]:443", []string{`"[2001:db8::7]:5000", [2001:db8:ffff::2]`}, "2001:db8::7"},
		{"listed: IPv4 with a port", listed, "10.0.0.2:1", []string{"198.51.100.7:5123, 10.9.9.9:80"}, "198.51.100.7"},
		{"listed: a zone is dropped", listed, "10.0.0.2:1", []string{"fe80::1%eth0"}, "fe80::1"},
		{"listed: IPv4-mapped entries", listed, "10.0.0.2:1", []string{"::ffff:198.51.100.7, ::ffff:10.9.9.9"}, "198.51.100.7"},
		{"single value header", realIP, "10.0.0.2:1", []string{"198.51.100.7"}, "198.51.100.7"},
		{"single value header from a stranger", realIP, "203.0.113.9:1", []string{"127.0.0.1"}, "203.0.113.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.header {
				r.Header.Add(cmp.Or(tc.trust.Header, "X-Forwarded-For"), v)
			}
			if got := tc.trust.ClientIP(r); got != tc.want {
				t.Fatalf("client %q, want %q", got, tc.want)
			}
		})
	}
}

func TestClientIPFromPutsTheAddressInTheContext(t *testing.T) {
	var got string
	h := ClientIPFrom(ProxyTrust{Header: "X-Real-IP"})(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got = ClientIP(r.Context())
	}))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("X-Real-IP", "2001:db8::7")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if got != "2001:db8::7" {
		t.Fatalf("client %q", got)
	}
}
