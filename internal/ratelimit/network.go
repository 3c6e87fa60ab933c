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

// Block is the wider network address belongs to, for a budget one actor
// holding many networks shares: an IPv4 address's /24 and an IPv6
// address's /48, the most a provider commonly gives one customer (a
// /48 holds 65,536 /64s, each a Network of its own). What is not an
// address is returned as it is.
func Block(address string) string {
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap()
	bits := 48
	if ip.Is4() {
		bits = 24
	}
	return netip.PrefixFrom(ip.WithZone(""), bits).Masked().String()
}
