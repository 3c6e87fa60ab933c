package store

// MaxPage bounds page numbers in paged lists: far past any real data, and
// small enough that no page size turns it into an offset a database
// refuses (PostgreSQL answered a huge page with 500; SQLite quietly
// returned the first page).
const MaxPage = 100_000

// Page is page p of a paged list as the store reads it: at least 1, at
// most MaxPage.
func Page(p int) int { return min(max(p, 1), MaxPage) }
