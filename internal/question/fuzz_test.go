package question

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecode checks that Decode never panics and that whatever it accepts
// survives an export and re-import unchanged.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("text,mainTags\nWhy?,dental\n"), true)
	f.Add([]byte("id,seedKey,text,subtag,tip,big3,big3Order,mainTags,createdAt,updatedAt,createdBy,updatedBy\n"+
		"a,k,\"Multi\nline, \"\"quoted\"\"?\",ethical,tip,TRUE,1,DENTAL;pa,2025-09-07T14:30:00.5+02:00,,me,\n"), true)
	// Cells a spreadsheet would run, quoted and not: exported behind a quote,
	// they must come back as they were.
	f.Add([]byte("text,tip,scenario,mainTags\n\"'=1+1, why?\",''Tis a tip,-A ward,dental\n@you?,'+1,,pa\n"), true)
	f.Add([]byte(`{"questions":[{"text":"=HYPERLINK(\"x\")","tip":"'@","mainTags":["ot"]}]}`), false)
	f.Add([]byte(`{"questions":[{"text":"Why?","mainTags":["ot"],"big3":true,"big3Order":3}]}`), false)
	f.Add([]byte(`[{"text":" x ","mainTags":["Vet","veterinary"],"createdAt":"2025-01-01T00:00:00Z"}, null, 1]`), false)
	f.Fuzz(func(t *testing.T, data []byte, csv bool) {
		format := FormatJSON
		if csv {
			format = FormatCSV
		}
		qs, err := Decode(bytes.NewReader(data), format)
		if err != nil {
			return
		}
		for _, again := range []Format{FormatJSON, FormatCSV} {
			var buf bytes.Buffer
			if err := Encode(&buf, again, qs); err != nil {
				t.Fatalf("encode %s of accepted input: %v", again, err)
			}
			back, err := Decode(&buf, again)
			if err != nil {
				t.Fatalf("re-import %s of accepted input: %v\n%s", again, err, buf.String())
			}
			if len(back) != len(qs) {
				t.Fatalf("%s round trip changed the count from %d to %d", again, len(qs), len(back))
			}
			for i := range qs {
				if !reflect.DeepEqual(back[i], qs[i]) {
					t.Fatalf("%s round trip changed row %d:\n got %#v\nwant %#v", again, i+1, back[i], qs[i])
				}
			}
		}
	})
}
