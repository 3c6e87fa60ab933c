package practice

import (
	"context"
	"io"

	"github.com/whitecoat/whitecoat/internal/auth"
)

// Upload admits an answer and stores its recording, as a PUT does: the
// tests send an answer in one call.
func (s *Service) Upload(ctx context.Context, u auth.User, sessionID, itemID, mimeType string, body io.Reader) (Item, error) {
	it, err := s.AdmitAnswer(ctx, u, sessionID, itemID)
	if err != nil {
		return Item{}, err
	}
	return s.UploadAdmitted(ctx, u, it, mimeType, body)
}

// AppendAudio admits an answer and stores a piece of its recording, as a
// PATCH does.
func (s *Service) AppendAudio(ctx context.Context, u auth.User, sessionID, itemID string, offset int64, mimeType string, piece []byte) (int64, error) {
	it, err := s.AdmitAnswer(ctx, u, sessionID, itemID)
	if err != nil {
		return 0, err
	}
	return s.AppendAdmitted(ctx, u, it, offset, mimeType, piece)
}
