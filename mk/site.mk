# Public site: the downloads are PDFs made from content/*.md; tests read
# their text back with pdftotext (poppler-utils) to prove it is selectable.
TEST_PACKAGES += poppler-utils
