# Whitecoat: `make run` to start the app, `make test` to check everything.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO      ?= go
BIN     := bin/whitecoat
# The web build prerenders the public pages from the Go server's content
# and page code (web/scripts/prerender.mjs), so it depends on those too.
WEB_SRC := $(shell find web/src web/public web/scripts web/index.html web/vite.config.ts web/tsconfig*.json content internal/site internal/profession -type f 2>/dev/null)
GO_SRC  := $(shell find cmd internal content web/embed.go -name '*.go' -o -name '*.sql' -o -name '*.json' -o -name '*.txt' -o -name '*.csv' -o -name '*.md' 2>/dev/null)

# Debian packages: RUNTIME_PACKAGES are needed by `make run`, TEST_PACKAGES
# only by tests and benchmarks. mk/*.mk fragments add theirs.
RUNTIME_PACKAGES :=
TEST_PACKAGES    := chromium
BENCH_TARGETS    :=
-include mk/*.mk

.PHONY: help run build test test-go lint-go test-go-packages test-web test-e2e check-generated generate bench \
        system-deps test-system-deps toolchain clean

help:
	@echo "make run    build everything and start Whitecoat on http://localhost:8080 (SQLite in ./data)"
	@echo "make test   Go tests (SQLite and PostgreSQL), web unit tests, Playwright end-to-end tests"
	@echo "make bench  benchmarks, printed as tables"
	@echo "make generate  regenerate the OpenAPI document and the web client's types"

toolchain:
	@command -v $(GO) >/dev/null || { echo "Go 1.26+ is required: https://go.dev/dl/ (or your package manager)"; exit 1; }
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "Node.js 20.19+ with npm is required: apt-get install nodejs npm (or https://nodejs.org)"; exit 1; }

system-deps:
	@scripts/ensure-debian-packages.sh $(sort $(RUNTIME_PACKAGES))

test-system-deps:
	@scripts/ensure-debian-packages.sh $(sort $(RUNTIME_PACKAGES) $(TEST_PACKAGES))

# npm ci, or the tarball of an earlier one for the same lock file
# (scripts/npm-ci-cached.sh). Some npm packages ship Go sources (flatted,
# under eslint); a go.mod of their own keeps them out of this module's
# ./... (build, vet, deadcode).
web/node_modules/.package-lock.json: web/package-lock.json | toolchain
	scripts/npm-ci-cached.sh
	@printf 'module whitecoat.invalid/node_modules\n' > web/node_modules/go.mod
	@touch $@

# The bundle is built without a type check (Vite strips the types): the
# types are checked once, by test-web's typecheck, which runs beside the
# browser tests instead of before them.
web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run build --silent

$(BIN): web/dist/index.html $(GO_SRC) go.mod go.sum | toolchain
	$(GO) build -o $(BIN) ./cmd/whitecoat

build: $(BIN)

run: system-deps $(BIN)
	@mkdir -p data
	@echo ""
	@echo "  Whitecoat is starting on http://localhost:8080  (SQLite database: ./data/whitecoat.db)"
	@echo "  Emails are not sent in development: each one, with its link, is printed in this log."
	@echo "  Stop with Ctrl-C. Configuration: see README.md."
	@if [ -z "$$STRIPE_SECRET_KEY" ] && [ "$${DEV_CHECKOUT:-1}" = 1 ]; then echo "  Payments are SIMULATED (DEV_CHECKOUT=1): Upgrade grants Premium without any payment."; fi
	@echo ""
	@if [ -z "$$STRIPE_SECRET_KEY" ]; then export DEV_CHECKOUT="$${DEV_CHECKOUT:-1}"; fi; exec ./$(BIN) serve

# The document comes from the Go handlers alone (go run, not the built
# binary), so a contract change that the web code does not compile against
# yet can still be generated.
generate: web/node_modules/.package-lock.json | toolchain
	$(GO) run ./cmd/whitecoat openapi > web/openapi.json
	cd web && npm run generate --silent

# CI fails when the committed OpenAPI document or web types drift from
# what the Go handlers produce.
check-generated: generate
	@git diff --exit-code -- web/openapi.json web/src/api || { \
	  echo "Generated API files are out of date: run 'make generate' and commit the result."; exit 1; }

# The three phases run at the same time, longest first: the browser tests
# (recordings played in real time, the server and Chromium), the Go tests
# and linters, and the web unit tests. The last two are CPU work that can
# wait: they run at a lower priority (nice), so that the browser tests,
# whose pages and recordings run against the clock, get the CPU when they
# need it and the rest fills the gaps. (Run first and alone, the web unit
# tests added a minute and a half to CI.) -k lets the others finish when
# one fails; --output-sync prints each one's output whole when it ends,
# not interleaved.
test: test-system-deps check-generated $(BIN) stripe-mock web/node_modules/.package-lock.json
	@$(MAKE) --no-print-directory -k -j4 --output-sync=target test-e2e test-go test-web

test-go: lint-go test-go-packages

# What `make test` runs beside the browser tests, at a lower CPU priority.
LATER := nice -n 10

# deadcode (golang.org/x/tools) lists functions nothing reaches, tests
# included; any line it prints fails the build.
DEADCODE := golang.org/x/tools/cmd/deadcode@v0.52.0

lint-go: $(BIN)
	@unformatted="$$(gofmt -l cmd internal bench web/embed.go)"; if [ -n "$$unformatted" ]; then echo "$$unformatted"; echo "Not gofmt-formatted: run gofmt -w on these."; exit 1; fi
	$(LATER) $(GO) vet ./...
	@dead="$$($(LATER) $(GO) run $(DEADCODE) -test ./...)" || exit 1; if [ -n "$$dead" ]; then echo "$$dead"; echo "Unreachable code: delete it or use it."; exit 1; fi

test-go-packages: $(BIN)
	@scripts/postgres-banner.sh
	$(LATER) $(GO) test -count=1 -timeout=25m ./...

test-web: web/node_modules/.package-lock.json
	cd web && $(LATER) npm run typecheck --silent && $(LATER) npm run lint --silent && $(LATER) npm test --silent

test-e2e: $(BIN) $(FACE_PHOTO)
	cd web && WHITECOAT_BIN=$(CURDIR)/$(BIN) FACE_PHOTO=$(CURDIR)/$(FACE_PHOTO) npm run e2e --silent

# -k: a benchmark that misses its target still lets the others run and
# print their tables; make then exits non-zero.
bench: test-system-deps $(BIN)
	@$(MAKE) --no-print-directory -k $(BENCH_TARGETS)

clean:
	rm -rf bin web/dist/assets web/dist/index.html
