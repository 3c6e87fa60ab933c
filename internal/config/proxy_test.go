package config

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestTrustedProxiesAreParsed(t *testing.T) {
	env := map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": " 10.1.2.3/8, 127.0.0.1,::ffff:192.0.2.1 , fd00::/8,,"}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32"),
		netip.MustParsePrefix("192.0.2.1/32"), netip.MustParsePrefix("fd00::/8")}
	if c.TrustedProxyHeader != "X-Forwarded-For" || !slices.Equal(c.TrustedProxies, want) {
		t.Fatalf("header %q, proxies %v", c.TrustedProxyHeader, c.TrustedProxies)
	}
}

func TestBadProxySettingsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": "10.0.0.0/8, proxy.internal"}, "TRUSTED_PROXIES"},
		{map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": "10.0.0.0/33"}, "TRUSTED_PROXIES"},
		{map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXIES": "fe80::1%eth0"}, "TRUSTED_PROXIES"},
		{map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8"}, "TRUSTED_PROXIES"},
		{map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For: 1.2.3.4"}, "TRUSTED_PROXY_HEADER"},
		{map[string]string{"TRUSTED_PROXY_HEADER": "forwarded"}, "TRUSTED_PROXY_HEADER"},
	} {
		_, err := Load(func(k string) string { return tc.env[k] })
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%v: error %v, want one naming %s", tc.env, err, tc.name)
		}
	}
}
