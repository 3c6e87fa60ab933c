// Package mediatest makes hostile recordings for tests and benchmarks.
package mediatest

import (
	"bytes"
	"encoding/binary"
)

// BombSamples is how many samples SampleTableBomb declares.
const BombSamples = 50_000_000

// SampleTableBomb returns a 1 KB MP4 whose only track, AAC audio, declares
// BombSamples samples of one constant size, all in one chunk. The tables
// cost 12 bytes each however many samples they declare, while ffmpeg
// allocates an index entry of 24 bytes per sample before it reads any:
// 1.2 GB for this file.
func SampleTableBomb() []byte {
	const timescale = 16000
	// AudioSpecificConfig: AAC-LC, 16 kHz, mono.
	esds := fullBox("esds", 0,
		descriptor(0x03, u16(1), []byte{0},
			descriptor(0x04, []byte{0x40, 0x15, 0, 0, 0}, u32(0), u32(0),
				descriptor(0x05, []byte{0x14, 0x08})),
			descriptor(0x06, []byte{0x02})))
	mp4a := box("mp4a", make([]byte, 6), u16(1), make([]byte, 8), u16(1), u16(16), make([]byte, 4), u32(timescale<<16), esds)
	payload := make([]byte, 64)
	stbl := func(mdatPayloadAt uint32) []byte {
		return box("stbl",
			fullBox("stsd", 0, u32(1), mp4a),
			fullBox("stts", 0, u32(1), u32(BombSamples), u32(1024)),
			fullBox("stsc", 0, u32(1), u32(1), u32(BombSamples), u32(1)),
			fullBox("stsz", 0, u32(uint32(len(payload))), u32(BombSamples)),
			fullBox("stco", 0, u32(1), u32(mdatPayloadAt)))
	}
	moov := func(mdatPayloadAt uint32) []byte {
		return box("moov",
			fullBox("mvhd", 0, u32(0), u32(0), u32(1000), u32(1000), u32(0x00010000), u16(0x0100), make([]byte, 10),
				identity(), make([]byte, 24), u32(2)),
			box("trak",
				fullBox("tkhd", 3, u32(0), u32(0), u32(1), u32(0), u32(1000), make([]byte, 8), u16(0), u16(0), u16(0x0100), u16(0),
					identity(), u32(0), u32(0)),
				box("mdia",
					fullBox("mdhd", 0, u32(0), u32(0), u32(timescale), u32(timescale), u16(0x55c4), u16(0)),
					fullBox("hdlr", 0, u32(0), []byte("soun"), make([]byte, 12), []byte("SoundHandler\x00")),
					box("minf",
						fullBox("smhd", 0, u16(0), u16(0)),
						box("dinf", fullBox("dref", 0, u32(1), fullBox("url ", 1))),
						stbl(mdatPayloadAt)))))
	}
	ftyp := box("ftyp", []byte("isom"), u32(512), []byte("isomiso2mp41"))
	// The chunk offset depends on moov's size, which does not depend on it.
	at := uint32(len(ftyp) + len(moov(0)) + 8)
	return bytes.Join([][]byte{ftyp, moov(at), box("mdat", payload)}, nil)
}

func box(typ string, parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	return bytes.Join([][]byte{u32(uint32(8 + len(body))), []byte(typ), body}, nil)
}

func fullBox(typ string, flags uint32, parts ...[]byte) []byte {
	return box(typ, append([][]byte{u32(flags)}, parts...)...) // version 0
}

// descriptor is an MPEG-4 descriptor with a one-byte length.
func descriptor(tag byte, parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	return append([]byte{tag, byte(len(body))}, body...)
}

func identity() []byte {
	return bytes.Join([][]byte{u32(0x00010000), u32(0), u32(0), u32(0), u32(0x00010000), u32(0), u32(0), u32(0), u32(0x40000000)}, nil)
}

func u16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// LowRateWAV returns a WAV of size bytes whose 16-bit mono samples are
// declared at one a second: an 8 MiB one is 48 days of "audio", which a
// decode resampling to 16 kHz for each voice scaling spent seconds of CPU
// on (issue 38), however short the decode's output is cut.
func LowRateWAV(size int) []byte {
	data := make([]byte, size-44)
	for i := range data {
		data[i] = byte(i * 7) // not silence: a decoder cannot skip it
	}
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	le16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	// PCM, mono, 1 sample a second, 2 bytes a second, 2-byte frames, 16 bits.
	format := bytes.Join([][]byte{le32(16), le16(1), le16(1), le32(1), le32(2), le16(2), le16(16)}, nil)
	return bytes.Join([][]byte{[]byte("RIFF"), le32(uint32(36 + len(data))), []byte("WAVEfmt "), format, []byte("data"), le32(uint32(len(data))), data}, nil)
}
