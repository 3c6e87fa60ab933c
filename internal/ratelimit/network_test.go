package ratelimit_test

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/ratelimit"
)

// An address counts by its network (an IPv6 subscriber's /64) and, for a
// budget that one actor's networks share, by its block (a /24, a /48).
func TestNetworkAndBlockGroupAddresses(t *testing.T) {
	for _, tc := range []struct{ address, network, block string }{
		{"198.51.100.7", "198.51.100.7", "198.51.100.0/24"},
		{"::ffff:198.51.100.7", "198.51.100.7", "198.51.100.0/24"},
		{"198.51.101.7", "198.51.101.7", "198.51.101.0/24"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64", "2001:db8:1::/48"},
		{"2001:db8:2::1", "2001:db8:2::/64", "2001:db8:2::/48"},
		{"fe80::1%eth0", "fe80::/64", "fe80::/48"},
		{"not an address", "not an address", "not an address"},
	} {
		if got := ratelimit.Network(tc.address); got != tc.network {
			t.Errorf("Network(%q) = %q, want %q", tc.address, got, tc.network)
		}
		if got := ratelimit.Block(tc.address); got != tc.block {
			t.Errorf("Block(%q) = %q, want %q", tc.address, got, tc.block)
		}
	}
}
