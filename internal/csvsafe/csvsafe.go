// Package csvsafe writes CSV files that a spreadsheet opens as data. A
// cell that begins with = + - @, a tab or a carriage return is run as a
// formula by Excel, LibreOffice and Google Sheets (=HYPERLINK(...) sends
// the neighbouring cells to another site on one click), so every such cell
// is written behind a single quote, which makes it text: OWASP's rule
// against CSV injection. Restore undoes exactly that for an import.
package csvsafe

import (
	"encoding/csv"
	"io"
	"strings"
)

// quote is what makes a cell text in a spreadsheet.
const quote = '\''

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula. A cell that already begins with the quote is quoted
// again, so that Restore can tell an added quote from one that was typed.
const formulaStarts = "=+-@\t\r" + string(quote)

// Writer is a csv.Writer that neutralises every cell it writes.
type Writer struct {
	*csv.Writer
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{Writer: csv.NewWriter(w)}
}

// Write writes one record with every cell neutralised.
func (w *Writer) Write(record []string) error {
	safe := make([]string, len(record))
	for i, cell := range record {
		safe[i] = neutralise(cell)
	}
	return w.Writer.Write(safe)
}

// neutralise prefixes a cell that a spreadsheet would run with the quote.
// A plain decimal number such as -12 or -0.5 is left as it is: it is a
// number to a spreadsheet, never a formula, and numeric columns stay
// numeric.
func neutralise(cell string) string {
	if cell == "" || !strings.ContainsRune(formulaStarts, rune(cell[0])) || isPlainNumber(cell) {
		return cell
	}
	return string(quote) + cell
}

// Restore undoes neutralise on a cell read back from a file: it removes
// the quote in front of a cell that neutralise would have quoted, and
// leaves any other cell, including one that begins with a typed
// apostrophe ("'Tis"), as it is.
func Restore(cell string) string {
	if len(cell) >= 2 && cell[0] == quote && strings.ContainsRune(formulaStarts, rune(cell[1])) {
		return cell[1:]
	}
	return cell
}

// isPlainNumber reports whether s is an optional minus sign, digits, and
// optionally a point and more digits.
func isPlainNumber(s string) bool {
	whole, fraction, hasPoint := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	return allDigits(whole) && (!hasPoint || allDigits(fraction))
}

func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
