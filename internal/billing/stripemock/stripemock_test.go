package stripemock

import (
	"net/http"
	"testing"
)

// TestTwoRunAtOnce: the billing and app packages and the browser tests each
// start their own stripe-mock at the same time. Each used to claim the
// default HTTPS port too, so the second one exited and was waited for
// until the test failed (seen in CI as "stripe-mock did not answer").
func TestTwoRunAtOnce(t *testing.T) {
	first, second := Start(t), Start(t)
	if first == second {
		t.Fatalf("both listen on %s", first)
	}
	for _, url := range []string{first, second} {
		resp, err := http.Get(url + "/v1/charges")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// Without a key stripe-mock refuses the call: it is stripe-mock
		// answering, not something else on the port.
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s answered %d, want 401", url, resp.StatusCode)
		}
	}
}
