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
