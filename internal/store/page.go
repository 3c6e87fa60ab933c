package store

// MaxPage bounds page numbers in paged lists: far past any real data, and
// small enough that no page size turns it into an offset a database
// refuses (PostgreSQL answered a huge page with 500; SQLite quietly
// returned the first page).
const MaxPage = 100_000
