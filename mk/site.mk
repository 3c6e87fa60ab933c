# Public site: the downloads are PDFs made from content/*.md; tests read
# their text back with pdftotext (poppler-utils) to prove it is selectable.
TEST_PACKAGES += poppler-utils

# The landing page's JavaScript budget and Lighthouse's four scores on
# three public pages (issue 14), against the real binary, with Debian's
# Chromium.
BENCH_TARGETS += bench-site

.PHONY: bench-site
bench-site: $(BIN)
	cd web && CHROME_PATH=/usr/bin/chromium node bench/site.mjs $(CURDIR)/$(BIN)
