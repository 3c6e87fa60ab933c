// Package content embeds the public site's words (see README.md): one
// source for the web pages, the server's meta tags and the PDFs.
package content

import "embed"

// FS holds pages/, guides/ and downloads/.
//
//go:embed pages guides downloads
var FS embed.FS
