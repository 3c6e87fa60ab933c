package ratelimit_test

import (
	"testing"

	"github.com/whitecoat/whitecoat/internal/ratelimit"
)

func TestNetworkGroupsAnIPv6SubscribersBlock(t *testing.T) {
	for _, tc := range []struct{ address, want string }{
		{"198.51.100.7", "198.51.100.7"},
		{"::ffff:198.51.100.7", "198.51.100.7"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	} {
		if got := ratelimit.Network(tc.address); got != tc.want {
			t.Errorf("Network(%q) = %q, want %q", tc.address, got, tc.want)
		}
	}
}

func TestBlockGroupsAProvidersCustomer(t *testing.T) {
	for _, tc := range []struct{ address, want string }{
		{"198.51.100.7", "198.51.100.0/24"},
		{"::ffff:198.51.100.200", "198.51.100.0/24"},
		{"198.51.101.7", "198.51.101.0/24"},
		{"2001:db8:1:2::1", "2001:db8:1::/48"},
		{"2001:db8:1:ffff:ffff:ffff:ffff:ffff", "2001:db8:1::/48"},
		{"2001:db8:2::1", "2001:db8:2::/48"},
		{"not an address", "not an address"},
	} {
		if got := ratelimit.Block(tc.address); got != tc.want {
			t.Errorf("Block(%q) = %q, want %q", tc.address, got, tc.want)
		}
	}
}
