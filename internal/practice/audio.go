package practice

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/whitecoat/whitecoat/internal/store"
)

// A recorded answer lives in the database from the moment it is accepted
// until it is transcribed or abandoned, so that whichever copy of the
// server runs its job (or receives its next piece) can read it; the audio
// directory only holds scratch copies for ffmpeg and the speech engine.
// The database names a recording by the path of the copy that received
// it; other copies keep their scratch copy under the same file name in
// their own directory.

// audioChunk is how much of an uploaded file one row holds.
const audioChunk = 1 << 20

// storeUpload copies the uploaded recording at path into the database.
func storeUpload(ctx context.Context, q store.Queryer, itemID, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return storageErr(err)
	}
	defer f.Close()
	buf := make([]byte, audioChunk)
	for offset := int64(0); ; {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			if err := storeAudioPiece(ctx, q, itemID, path, offset, buf[:n]); err != nil {
				return err
			}
			offset += int64(n)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil
		}
		if err != nil {
			return storageErr(err)
		}
	}
}

// scratch is where this copy keeps its scratch copy of the recording the
// database knows as path ("" for none).
func (s *Service) scratch(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Join(s.cfg.AudioDir, filepath.Base(path))
}

// recordingKept reports whether the recording at path is still here for
// a retry: in the database, or on this copy's disk.
func (s *Service) recordingKept(ctx context.Context, q store.Queryer, path string) (bool, error) {
	if path == "" {
		return false, nil
	}
	stored, err := storedAudioSize(ctx, q, path)
	if err != nil || stored > 0 {
		return stored > 0, err
	}
	_, err = os.Stat(s.scratch(path))
	return err == nil, nil
}

// localAudio returns the path of this copy's scratch copy of the
// recording the database knows as path, made or brought up to date from
// the database when this copy did not receive all of it. A recording the
// database does not hold (kept from before it did) is used as the disk
// has it. os.ErrNotExist means it is gone. size is the recording's size
// when the caller knows it (-1 when not): a scratch copy of that size is
// taken as it is, without asking the database.
func (s *Service) localAudio(ctx context.Context, path string, size int64) (string, error) {
	if path == "" {
		return "", os.ErrNotExist
	}
	local := s.scratch(path)
	info, statErr := os.Stat(local)
	if size >= 0 && statErr == nil && info.Size() == size {
		return local, nil
	}
	stored, err := storedAudioSize(ctx, s.db.SQL, path)
	if err != nil {
		return "", err
	}
	switch {
	case stored == 0 && statErr != nil:
		return "", os.ErrNotExist
	case stored == 0, statErr == nil && info.Size() == stored:
		return local, nil
	}
	// Another copy received (some of) it, or an append failed after its
	// bytes were written here: the database has it as it is.
	f, err := os.OpenFile(local, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return "", storageErr(err)
	}
	err = copyStoredAudio(ctx, s.db.SQL, path, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		removeAudio(s.logger, local)
		return "", fmt.Errorf("practice: copy of a stored recording: %w", err)
	}
	return local, nil
}
