package httpx

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
)

// ProxyTrust says which reverse proxies stand between the clients and the
// server, and which header they write the client's address into. Proxies
// append to X-Forwarded-For, so only its right-hand end is theirs: anything
// further left is whatever the client sent and is never believed.
type ProxyTrust struct {
	// Header is the header the proxies set (X-Forwarded-For, X-Real-IP,
	// CF-Connecting-IP, ...); empty means there is no proxy and the TCP
	// peer is the client.
	Header string
	// Proxies are the proxies' addresses. Empty means the TCP peer is the
	// only proxy: the header's right-most entry is the client. Otherwise the
	// header counts only when the TCP peer is one of them, and entries that
	// are theirs are skipped from the right; the first other is the client.
	Proxies []netip.Prefix
}

// ClientIPFrom resolves each request's client address (see ProxyTrust) for
// ClientIP.
func ClientIPFrom(trust ProxyTrust) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey, trust.ClientIP(r))))
		})
	}
}

// ClientIP returns r's client address. When the header is missing, or an
// entry where the client should be is not an address (a proxy not set up
// as configured), it is the nearest hop known: the last trusted proxy.
func (p ProxyTrust) ClientIP(r *http.Request) string {
	peer, ok := parseAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if p.Header == "" || (len(p.Proxies) > 0 && !p.trusts(peer)) {
		return peer.String()
	}
	// Several header lines are one list, in order (RFC 9110, section 5.3).
	entries := strings.Split(strings.Join(r.Header.Values(p.Header), ","), ",")
	nearest := peer
	for i := len(entries) - 1; i >= 0; i-- {
		if strings.TrimSpace(entries[i]) == "" {
			continue // empty list elements are ignored (RFC 9110, section 5.6.1)
		}
		addr, ok := parseAddr(entries[i])
		if !ok {
			break
		}
		nearest = addr
		if !p.trusts(addr) {
			break
		}
	}
	return nearest.String()
}

// trusts reports whether addr is one of the listed proxies; with none
// listed, no header entry is a proxy.
func (p ProxyTrust) trusts(addr netip.Addr) bool {
	for _, prefix := range p.Proxies {
		if prefix.Contains(addr) {
			return true
		}
	}
	return false
}

// parseAddr reads one address as proxies write it: bare, with a port,
// bracketed IPv6 with or without a port, or quoted. IPv4 mapped into IPv6
// is read as IPv4 and zones are dropped, so that one client has one
// spelling for rate limits.
func parseAddr(s string) (netip.Addr, bool) {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	bare := s
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		bare = s[1 : len(s)-1]
	}
	addr, err := netip.ParseAddr(bare)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		addr = ap.Addr()
	}
	return addr.Unmap().WithZone(""), true
}
