package transcribe

import (
	"bytes"
	"mime"
	"strings"
)

// Format is an accepted container, identified from its first bytes.
type Format string

// The containers browsers record into (WebM from Chrome and Firefox, MP4 from
// Safari), plus Ogg (older Firefox) and WAV (operators' test files).
const (
	FormatWebM Format = "webm"
	FormatMP4  Format = "mp4"
	FormatOgg  Format = "ogg"
	FormatWAV  Format = "wav"
)

// SniffLen is how many leading bytes Sniff looks at.
const SniffLen = 16

// demuxer is ffmpeg's input format for each container. Naming it explicitly
// keeps ffmpeg from probing, so a file cannot steer it to a demuxer that
// opens other files (hls, concat, image sequences).
var demuxer = map[Format]string{
	FormatWebM: "matroska",
	FormatMP4:  "mov",
	FormatOgg:  "ogg",
	FormatWAV:  "wav",
}

// imageBrands are ISO-BMFF brands of still images, which share MP4's box
// layout but never carry a recording.
var imageBrands = map[string]bool{
	"heic": true, "heix": true, "heim": true, "heis": true, "hevc": true,
	"mif1": true, "msf1": true, "avif": true, "avis": true, "crx ": true, "jp2 ": true,
}

// Sniff identifies the container from the first bytes of a file. ok is false
// for anything that is not a recording of an accepted kind.
func Sniff(head []byte) (f Format, ok bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		return FormatWebM, true
	case len(head) >= 12 && string(head[4:8]) == "ftyp" && !imageBrands[string(head[8:12])]:
		return FormatMP4, true
	case bytes.HasPrefix(head, []byte("OggS")):
		return FormatOgg, true
	case len(head) >= 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return FormatWAV, true
	}
	return "", false
}

// claimAcceptable refuses uploads whose declared type is not audio or video.
// An absent or generic claim is fine: the bytes decide.
func claimAcceptable(claim string) bool {
	if strings.TrimSpace(claim) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(claim)
	if err != nil {
		return false
	}
	return strings.HasPrefix(mt, "audio/") || strings.HasPrefix(mt, "video/") || mt == "application/octet-stream"
}
