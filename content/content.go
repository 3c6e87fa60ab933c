// Package content embeds the public site's words (see README.md): one
// source for the web pages, the server's meta tags and the PDFs.
package content

import "embed"

// FS holds pages/, guides/, downloads/ and examples/ (an example answer
// to each profession's default question, scored on its landing page).
//
//go:embed pages guides downloads examples
var FS embed.FS
