# Sharing: the end-to-end spec moves an expired link's end back in the
# e2e server's SQLite database with the sqlite3 shell (the server has no
# clock a test can move).
TEST_PACKAGES += sqlite3
