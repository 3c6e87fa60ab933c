# Payments: Go and end-to-end tests create Checkout Sessions against
# stripe-mock, Stripe's own mock of its API, at a pinned version (keep in
# step with internal/billing/stripemock.Version). go install is a no-op
# once that version is built.
STRIPE_MOCK := github.com/stripe/stripe-mock@v0.203.0

.PHONY: stripe-mock
stripe-mock:
	$(GO) install $(STRIPE_MOCK)

test-go-packages: stripe-mock
test-e2e: stripe-mock
