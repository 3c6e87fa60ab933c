package ratelimit

import "net/netip"

// Network is what a per-address limit counts a client address by: an IPv4
// address itself, and the /64 of an IPv6 address. One home or phone is
// given a whole /64 (RFC 6177), so counting each IPv6 address alone would
// let a client step around every limit by moving to the next of its own
// 2^64 addresses. An IPv4 address written as IPv6 (::ffff:a.b.c.d) counts
// as itself; what is not an address is returned as it is.
func Network(address string) string {
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip.WithZone(""), 64).Masked().String()
}
