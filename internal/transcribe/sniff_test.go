package transcribe

import (
	"bytes"
	"testing"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		head []byte
		want Format
		ok   bool
	}{
		{"webm", []byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81}, FormatWebM, true},
		{"mp4 isom", []byte("\x00\x00\x00\x20ftypisom\x00\x00\x02\x00"), FormatMP4, true},
		{"safari mp4", []byte("\x00\x00\x00\x1cftypiso5\x00\x00\x00\x01"), FormatMP4, true},
		{"ogg", []byte("OggS\x00\x02\x00\x00"), FormatOgg, true},
		{"wav", []byte("RIFF\x24\x08\x00\x00WAVEfmt "), FormatWAV, true},
		{"heic photo", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"), "", false},
		{"avi is RIFF but not WAVE", []byte("RIFF\x24\x08\x00\x00AVI LIST"), "", false},
		{"text", []byte("hello, this is a text file"), "", false},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "", false},
		{"html", []byte("<!doctype html><html>"), "", false},
		{"empty", nil, "", false},
		{"short ebml", []byte{0x1A, 0x45, 0xDF}, "", false},
		{"short ftyp", []byte("\x00\x00\x00\x20ftyp"), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Sniff(tc.head)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Sniff(%q) = %q, %v; want %q, %v", tc.head, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestClaimAcceptable(t *testing.T) {
	tests := []struct {
		claim string
		want  bool
	}{
		{"", true},
		{"audio/webm", true},
		{"audio/webm;codecs=opus", true},
		{"video/mp4", true},
		{"application/octet-stream", true},
		{"text/plain", false},
		{"image/png", false},
		{"application/pdf", false},
		{"audio/", false},
		{";;;", false},
	}
	for _, tc := range tests {
		if got := claimAcceptable(tc.claim); got != tc.want {
			t.Errorf("claimAcceptable(%q) = %v, want %v", tc.claim, got, tc.want)
		}
	}
}

// FuzzSniff checks that any accepted header really starts with its
// container's signature, so ffmpeg is only ever told a format the bytes
// claim, and that Sniff never panics or reads past the header.
func FuzzSniff(f *testing.F) {
	for _, seed := range [][]byte{
		{0x1A, 0x45, 0xDF, 0xA3}, []byte("\x00\x00\x00\x20ftypisom"), []byte("OggS"),
		[]byte("RIFF\x00\x00\x00\x00WAVE"), []byte("RIFF"), []byte("ftyp"), {},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		format, ok := Sniff(head)
		if ok != (format != "") {
			t.Fatalf("ok=%v with format %q", ok, format)
		}
		if !ok {
			return
		}
		if _, known := demuxer[format]; !known {
			t.Fatalf("format %q has no demuxer", format)
		}
		var valid bool
		switch format {
		case FormatWebM:
			valid = bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3})
		case FormatMP4:
			valid = len(head) >= 12 && string(head[4:8]) == "ftyp" && !imageBrands[string(head[8:12])]
		case FormatOgg:
			valid = bytes.HasPrefix(head, []byte("OggS"))
		case FormatWAV:
			valid = len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE"
		}
		if !valid {
			t.Fatalf("Sniff(%q) accepted as %s without its signature", head, format)
		}
		// Only the first SniffLen bytes may matter.
		if len(head) > SniffLen {
			if f2, ok2 := Sniff(head[:SniffLen]); f2 != format || ok2 != ok {
				t.Fatalf("result depends on bytes past SniffLen")
			}
		}
	})
}
