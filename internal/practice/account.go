package practice

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/whitecoat/whitecoat/internal/csvsafe"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Export is everything practice keeps about a user, for their data export.
type Export struct {
	// Sessions are every practice session, oldest first, with each
	// answer's transcript, metrics and feedback.
	Sessions []Session `json:"sessions"`
	// VoiceFactor is the speech engine's scaling factor for the user's
	// voice, when one is remembered.
	VoiceFactor *VoiceFactor `json:"voiceFactor,omitempty"`
	// Preferences are how the user chose to be heard, with what it means.
	Preferences PreferencesExport `json:"preferences"`
	// Averages are the user's averages over their scored sessions.
	Averages Averages `json:"averages"`
	// Stats are the spec's sessionsCompleted and questionsPracticed, as
	// the dashboard shows them.
	Stats Stats `json:"stats"`
}

// Export gathers the user's sessions, voice factor,
// averages and stats.
func (s *Service) Export(ctx context.Context, userID string) (Export, error) {
	ids, err := userSessionIDs(ctx, s.db.SQL, userID)
	if err != nil {
		return Export{}, err
	}
	out := Export{Sessions: make([]Session, 0, len(ids))}
	for _, id := range ids {
		sess, err := sessionOf(ctx, s.db.SQL, userID, id)
		if errors.Is(err, errNotFound) {
			continue // deleted since it was listed
		}
		if err == nil {
			sess, err = withItems(ctx, s.db.SQL, sess)
		}
		if err != nil {
			return Export{}, err
		}
		viewed, err := s.view(ctx, sess)
		if err != nil {
			return Export{}, err
		}
		out.Sessions = append(out.Sessions, viewed)
	}
	if out.VoiceFactor, err = userVoice(ctx, s.db.SQL, userID); err != nil {
		return Export{}, err
	}
	if out.Preferences.Preferences, err = userPreferences(ctx, s.db.SQL, userID); err != nil {
		return Export{}, err
	}
	out.Preferences.HearingMeans = HearingMeanings[out.Preferences.Hearing]
	if out.Averages, err = userAverages(ctx, s.db.SQL, userID); err != nil {
		return Export{}, err
	}
	if out.Stats, err = s.Stats(ctx, userID); err != nil {
		return Export{}, err
	}
	return out, nil
}

// csvHeader names the columns of WriteCSV: one row per answer.
var csvHeader = []string{"session_id", "session_started", "profession", "session_status", "position", "question", "status",
	"transcript", "overall_score", "overall_impression", "clarity_structure", "content", "feedback_summary", "suggestions", "red_flags", "competencies", "possibly_misheard"}

// WriteCSV writes the export's sessions as CSV, one row per question with
// its answer and feedback, for a spreadsheet. Cells a spreadsheet would run
// as formulas (a typed answer can begin with "=") are written as text.
// Scores are 0-100, never negative, so no number is touched.
func (e Export) WriteCSV(w io.Writer) error {
	cw := csvsafe.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, sess := range e.Sessions {
		for _, it := range sess.Items {
			row := []string{sess.ID, sess.CreatedAt.UTC().Format(time.RFC3339), sess.Profession, sess.Status,
				strconv.Itoa(it.Position), it.Question, string(it.Status), "", "", "", "", "", "", "", "", "", ""}
			if it.Transcript != nil {
				row[7] = *it.Transcript
			}
			// The words the screens mark as possibly misheard, one a line.
			var misheard []string
			for _, p := range it.TranscriptParts {
				if p.Uncertain {
					misheard = append(misheard, p.Text)
				}
			}
			row[16] = strings.Join(misheard, "\n")
			if fb := it.Feedback; fb != nil {
				if o, ok := fb.Overall(); ok { // none when the content was not judged
					row[8] = strconv.Itoa(o)
				}
				row[9] = strconv.Itoa(fb.SectionScores.OverallImpression)
				row[10], row[11] = strconv.Itoa(fb.SectionScores.ClarityStructure), strconv.Itoa(fb.SectionScores.Content)
				row[12], row[13] = fb.Summary, strings.Join(fb.Suggestions, "\n")
				var flags, competencies []string
				for _, f := range fb.RedFlags {
					flags = append(flags, f.Name)
				}
				for _, c := range fb.Competencies {
					competencies = append(competencies, string(c))
				}
				row[14], row[15] = strings.Join(flags, "\n"), strings.Join(competencies, " ")
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// DeleteUserData removes every practice row of the user inside the
// caller's transaction, which deletes the account too. It returns the
// recordings still on disk, for RemoveRecordings once the transaction has
// committed: a rollback must not have lost them.
func (s *Service) DeleteUserData(ctx context.Context, q store.Queryer, userID string) ([]string, error) {
	recordings, err := userRecordings(ctx, q, userID)
	if err != nil {
		return nil, err
	}
	return recordings, deleteUserRows(ctx, q, userID)
}

// RemoveRecordings deletes a deleted user's recordings. One that cannot be
// removed now is logged; no answer needs it any more, so the sweeper
// removes it later.
func (s *Service) RemoveRecordings(paths []string) {
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.logger.Warn("could not remove a deleted account's recording", "path", p, "err", err)
		}
	}
}
