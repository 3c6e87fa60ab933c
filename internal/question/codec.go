package question

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/csvsafe"
)

// Format is an import/export file format.
type Format string

const (
	FormatJSON Format = "json"
	FormatCSV  Format = "csv"
)

// ParseFormat accepts "json" or "csv" in any case.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case FormatJSON, FormatCSV:
		return f, nil
	}
	return "", fmt.Errorf("question: unknown format %q; use json or csv", s)
}

// columns is the CSV header in export order; it doubles as the field order of
// validation messages.
var columns = []string{"id", "seedKey", "scenario", "text", "followUps", "subtag", "tip", "big3", "big3Order", "mainTags",
	"points", "traps", "createdAt", "updatedAt", "createdBy", "updatedBy"}

// tagSeparator joins mainTags in one CSV cell; slugs never contain it.
const tagSeparator = ";"

// followUpSeparator puts a station's follow-up prompts on lines of their own
// in one CSV cell; a prompt is a single line.
const followUpSeparator = "\n"

// timeLayout keeps nanoseconds so an export re-imports to identical timestamps.
const timeLayout = time.RFC3339Nano

// RowError is one problem with one row of an import file.
type RowError struct {
	Row     int    `json:"row"`
	Line    int    `json:"line,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (e RowError) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "row %d", e.Row)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(Problem{Field: e.Field, Message: e.Message}.String())
	return b.String()
}

// InvalidRowsError lists every problem found in an import file, so an admin
// can fix them all in one pass.
type InvalidRowsError struct {
	Format Format
	Rows   []RowError
}

func (e *InvalidRowsError) Error() string {
	bad := map[int]bool{}
	for _, r := range e.Rows {
		bad[r.Row] = true
	}
	noun := "rows"
	if len(bad) == 1 {
		noun = "row"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "question: %s import has %d invalid %s:", e.Format, len(bad), noun)
	for _, r := range e.Rows {
		b.WriteString("\n  ")
		b.WriteString(r.String())
	}
	return b.String()
}

// Encode writes qs to w in the given format.
func Encode(w io.Writer, format Format, qs []Question) error {
	switch format {
	case FormatJSON:
		return encodeJSON(w, qs)
	case FormatCSV:
		return encodeCSV(w, qs)
	}
	return fmt.Errorf("question: encode: unknown format %q", format)
}

// Decode reads an import file. It normalises and validates every row and
// returns either all questions or, when any row is bad, no questions and an
// *InvalidRowsError naming every bad row.
func Decode(r io.Reader, format Format) ([]Question, error) {
	var (
		rows []row
		err  error
	)
	switch format {
	case FormatJSON:
		rows, err = decodeJSON(r)
	case FormatCSV:
		rows, err = decodeCSV(r)
	default:
		return nil, fmt.Errorf("question: decode: unknown format %q", format)
	}
	if err != nil {
		return nil, err
	}

	var bad []RowError
	qs := make([]Question, len(rows))
	for i, rw := range rows {
		q := rw.q.Normalize()
		qs[i] = q
		for _, p := range rw.checked(q) {
			bad = append(bad, RowError{Row: i + 1, Line: rw.line, Field: p.Field, Message: p.Message})
		}
	}
	bad = append(bad, crossRowProblems(qs, rows)...)
	if len(bad) > 0 {
		slices.SortStableFunc(bad, func(a, b RowError) int {
			return cmp.Or(a.Row-b.Row, fieldRank(a.Field)-fieldRank(b.Field))
		})
		return nil, &InvalidRowsError{Format: format, Rows: bad}
	}
	return qs, nil
}

// row is one decoded record before validation, with the problems that
// stopped a field, or the whole record, from being read at all.
type row struct {
	q          Question
	line       int
	problems   []Problem
	unreadable bool
}

// checked adds validation problems to the read problems, leaving out those
// about a field that could not be read: they would only repeat the cause.
func (rw row) checked(q Question) []Problem {
	if rw.unreadable {
		return rw.problems
	}
	ps := slices.Clone(rw.problems)
	for _, p := range q.Problems() {
		if !slices.ContainsFunc(rw.problems, func(r Problem) bool { return r.Field == p.Field }) {
			ps = append(ps, p)
		}
	}
	return ps
}

// crossRowProblems finds conflicts between rows of one file; conflicts with
// questions already stored are the store's to judge.
func crossRowProblems(qs []Question, rows []row) []RowError {
	var bad []RowError
	ids := map[string]int{}
	seedKeys := map[string]int{}
	texts := map[string]int{}
	big3 := map[string]int{}
	report := func(i int, field, format string, args ...any) {
		bad = append(bad, RowError{Row: i + 1, Line: rows[i].line, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	for i, q := range qs {
		if rows[i].unreadable {
			continue
		}
		if q.ID != "" {
			if first, ok := ids[q.ID]; ok {
				report(i, "id", "%q is also used by row %d", q.ID, first)
			} else {
				ids[q.ID] = i + 1
			}
		}
		if q.SeedKey != "" {
			if first, ok := seedKeys[q.SeedKey]; ok {
				report(i, "seedKey", "%q is also used by row %d", q.SeedKey, first)
			} else {
				seedKeys[q.SeedKey] = i + 1
			}
		}
		for _, tag := range q.MainTags {
			key := tag + "\x00" + q.askKey()
			if first, ok := texts[key]; ok {
				report(i, "text", "duplicates row %d for profession %s", first, tag)
			} else {
				texts[key] = i + 1
			}
			if q.Big3 {
				key := tag + "\x00" + strconv.Itoa(q.Big3Order)
				if first, ok := big3[key]; ok {
					report(i, "big3Order", "row %d is already Big 3 number %d for profession %s", first, q.Big3Order, tag)
				} else {
					big3[key] = i + 1
				}
			}
		}
	}
	return bad
}

// askKey is what makes two questions the same question: their text, and
// for a station its scenario too (stations often share a prompt such as
// "What would you do?").
func (q Question) askKey() string {
	return textKey(q.Scenario) + "\x00" + textKey(q.Text)
}

// textKey makes texts that differ only in case or spacing compare equal, so
// near-identical questions are not asked twice.
func textKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

type jsonFile struct {
	Questions []Question `json:"questions"`
}

func encodeJSON(w io.Writer, qs []Question) error {
	out := make([]Question, len(qs))
	for i, q := range qs {
		out[i] = utcTimes(q)
		out[i].Version = 0 // this database's count of saves: left out of the file
	}
	if out == nil {
		out = []Question{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jsonFile{Questions: out}); err != nil {
		return fmt.Errorf("question: encode json: %w", err)
	}
	return nil
}

func utcTimes(q Question) Question {
	if !q.CreatedAt.IsZero() {
		q.CreatedAt = q.CreatedAt.UTC()
	}
	if !q.UpdatedAt.IsZero() {
		q.UpdatedAt = q.UpdatedAt.UTC()
	}
	return q
}

// jsonRow reads timestamps as strings so a bad one is reported with its field
// name instead of the time package's generic parse error.
type jsonRow struct {
	ID        string   `json:"id"`
	SeedKey   string   `json:"seedKey"`
	Scenario  string   `json:"scenario"`
	Text      string   `json:"text"`
	FollowUps []string `json:"followUps"`
	Subtag    string   `json:"subtag"`
	Tip       string   `json:"tip"`
	Big3      bool     `json:"big3"`
	Big3Order int      `json:"big3Order"`
	MainTags  []string `json:"mainTags"`
	Points    []Point  `json:"points"`
	Traps     []Point  `json:"traps"`
	CreatedAt string   `json:"createdAt"`
	UpdatedAt string   `json:"updatedAt"`
	CreatedBy string   `json:"createdBy"`
	UpdatedBy string   `json:"updatedBy"`
}

// decodeJSON accepts {"questions": [...]} as exported, or a bare array,
// which is what people tend to write by hand.
func decodeJSON(r io.Reader) ([]row, error) {
	br := bufio.NewReader(r)
	first, err := firstNonSpace(br)
	if err != nil {
		return nil, fmt.Errorf("question: decode json: %w", err)
	}
	dec := json.NewDecoder(br)
	var raws []json.RawMessage
	switch first {
	case '[':
		err = dec.Decode(&raws)
	case '{':
		var doc struct {
			Questions *[]json.RawMessage `json:"questions"`
		}
		dec.DisallowUnknownFields()
		err = dec.Decode(&doc)
		if err == nil && doc.Questions == nil {
			err = errors.New(`missing "questions" array`)
		}
		if doc.Questions != nil {
			raws = *doc.Questions
		}
	default:
		err = fmt.Errorf("expected an object with a \"questions\" array or an array of questions, found %q", first)
	}
	if err != nil {
		return nil, fmt.Errorf("question: decode json: %s", jsonMessage(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("question: decode json: unexpected data after the questions")
	}

	rows := make([]row, len(raws))
	for i, raw := range raws {
		rows[i] = decodeJSONRow(raw)
	}
	return rows, nil
}

func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			return 0, errors.New("file is empty")
		}
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b, br.UnreadByte()
	}
}

func decodeJSONRow(raw json.RawMessage) row {
	var jr jsonRow
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jr); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return unreadable(Problem{Message: fmt.Sprintf("expected a question object, found a JSON %s", te.Value)})
			}
			return unreadable(Problem{Field: te.Field, Message: fmt.Sprintf("expected %s, found a JSON %s", describeType(te.Type), te.Value)})
		}
		return unreadable(Problem{Message: jsonMessage(err)})
	}
	rw := row{q: Question{
		ID:        jr.ID,
		SeedKey:   jr.SeedKey,
		Scenario:  jr.Scenario,
		Text:      jr.Text,
		FollowUps: jr.FollowUps,
		Subtag:    Subtag(jr.Subtag),
		Tip:       jr.Tip,
		Big3:      jr.Big3,
		Big3Order: jr.Big3Order,
		MainTags:  jr.MainTags,
		Points:    jr.Points,
		Traps:     jr.Traps,
		CreatedBy: jr.CreatedBy,
		UpdatedBy: jr.UpdatedBy,
	}}
	rw.q.CreatedAt = rw.parseTime("createdAt", jr.CreatedAt)
	rw.q.UpdatedAt = rw.parseTime("updatedAt", jr.UpdatedAt)
	return rw
}

func unreadable(p Problem) row {
	return row{problems: []Problem{p}, unreadable: true}
}

func (rw *row) parseTime(field, s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		rw.problems = append(rw.problems, Problem{Field: field, Message: fmt.Sprintf("%q is not an RFC 3339 timestamp such as 2025-09-07T14:30:00Z", s)})
		return time.Time{}
	}
	return t
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of strings"
	}
	return t.String()
}

func jsonMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// encodeCSV writes cells a spreadsheet would run as formulas as text, and
// decodeCSV reads them back as they were (see csvsafe).
func encodeCSV(w io.Writer, qs []Question) error {
	cw := csvsafe.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return fmt.Errorf("question: encode csv: %w", err)
	}
	for _, q := range qs {
		q = utcTimes(q)
		rec := []string{
			q.ID,
			q.SeedKey,
			q.Scenario,
			q.Text,
			strings.Join(q.FollowUps, followUpSeparator),
			string(q.Subtag),
			q.Tip,
			strconv.FormatBool(q.Big3),
			strconv.Itoa(q.Big3Order),
			strings.Join(q.MainTags, tagSeparator),
			formatPoints(q.Points),
			formatPoints(q.Traps),
			formatTime(q.CreatedAt),
			formatTime(q.UpdatedAt),
			q.CreatedBy,
			q.UpdatedBy,
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("question: encode csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("question: encode csv: %w", err)
	}
	return nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(timeLayout)
}

// requiredColumns are the only ones a hand-written CSV must have; the rest
// default to empty, false or zero.
var requiredColumns = []string{"text", "mainTags"}

func decodeCSV(r io.Reader) ([]row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("question: decode csv: file is empty; the first line must be a header such as " + strings.Join(columns, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("question: decode csv: %w", err)
	}
	index, err := headerIndex(header)
	if err != nil {
		return nil, err
	}

	var rows []row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("question: decode csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		rows = append(rows, csvRow(rec, line, len(header), index))
	}
}

func headerIndex(header []string) (map[string]int, error) {
	index := map[string]int{}
	for i, h := range header {
		name := strings.TrimSpace(h)
		if i == 0 {
			name = strings.TrimPrefix(name, "\uFEFF")
		}
		col := ""
		for _, c := range columns {
			if strings.EqualFold(c, name) {
				col = c
			}
		}
		if col == "" {
			return nil, fmt.Errorf("question: decode csv: line 1: unknown column %q; columns are %s", name, strings.Join(columns, ", "))
		}
		if _, dup := index[col]; dup {
			return nil, fmt.Errorf("question: decode csv: line 1: column %q appears twice", col)
		}
		index[col] = i
	}
	for _, c := range requiredColumns {
		if _, ok := index[c]; !ok {
			return nil, fmt.Errorf("question: decode csv: line 1: missing required column %q", c)
		}
	}
	return index, nil
}

func csvRow(rec []string, line, width int, index map[string]int) row {
	if len(rec) != width {
		rw := unreadable(Problem{Message: fmt.Sprintf("has %d fields but the header has %d", len(rec), width)})
		rw.line = line
		return rw
	}
	rw := row{line: line}
	get := func(col string) string {
		if i, ok := index[col]; ok {
			return csvsafe.Restore(rec[i])
		}
		return ""
	}
	rw.q = Question{
		ID:        get("id"),
		SeedKey:   get("seedKey"),
		Scenario:  get("scenario"),
		Text:      get("text"),
		Subtag:    Subtag(get("subtag")),
		Tip:       get("tip"),
		CreatedBy: get("createdBy"),
		UpdatedBy: get("updatedBy"),
	}
	if tags := get("mainTags"); strings.TrimSpace(tags) != "" {
		rw.q.MainTags = strings.Split(tags, tagSeparator)
	}
	if prompts := get("followUps"); strings.TrimSpace(prompts) != "" {
		rw.q.FollowUps = strings.Split(strings.ReplaceAll(prompts, "\r\n", "\n"), followUpSeparator)
	}
	rw.q.Points, rw.q.Traps = parsePoints(get("points")), parsePoints(get("traps"))

	switch v := strings.ToLower(strings.TrimSpace(get("big3"))); v {
	case "true", "yes", "1":
		rw.q.Big3 = true
	case "false", "no", "0", "":
	default:
		rw.problems = append(rw.problems, Problem{Field: "big3", Message: fmt.Sprintf("%q is not true or false", get("big3"))})
	}
	if v := strings.TrimSpace(get("big3Order")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			rw.problems = append(rw.problems, Problem{Field: "big3Order", Message: fmt.Sprintf("%q is not a whole number", v)})
		}
		rw.q.Big3Order = n
	}
	rw.q.CreatedAt = rw.parseTime("createdAt", get("createdAt"))
	rw.q.UpdatedAt = rw.parseTime("updatedAt", get("updatedAt"))
	return rw
}
