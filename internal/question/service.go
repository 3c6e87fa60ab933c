package question

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
	"github.com/whitecoat/whitecoat/internal/profession"
	"github.com/whitecoat/whitecoat/internal/store"
)

// Messages the admin question manager shows, worded as the spec gives them.
const (
	MsgCompleteAllFields = "Please complete all fields."
	MsgAllFieldsRequired = "All fields required"
	MsgNotFound          = "Question not found."
)

// A question without text or a main tag: the admin's editors say so in
// the spec's words, which differ between adding and editing.
var (
	FailureIncompleteNew  = apperr.Failure{Name: "incomplete-new-question", Message: MsgCompleteAllFields}
	FailureIncompleteEdit = apperr.Failure{Name: "incomplete-question-edit", Message: MsgAllFieldsRequired}
	// FailureEditedMeanwhile is an edit made on an older version of the
	// question than the one stored: saving it would undo the later save.
	FailureEditedMeanwhile = apperr.Failure{Name: "question-edited-meanwhile",
		Message: "Another admin saved this question after you opened it, so your edit was not saved. Check their version, then save yours again."}
)

// SeedAuthor is the createdBy of questions inserted from the built-in bank.
const SeedAuthor = "whitecoat-bank"

// Page sizes of the admin question list.
const (
	DefaultPageSize = 25
	MaxPageSize     = 100
)

// Service is the question bank on top of the store.
type Service struct {
	db  *store.DB
	now func() time.Time
}

// NewService returns the question service; now is the clock (time.Now in
// production, a controllable one in tests).
func NewService(db *store.DB, now func() time.Time) *Service {
	return &Service{db: db, now: now}
}

func (s *Service) clock() time.Time { return store.Truncate(s.now()) }

// QuestionInput is what an admin edits: every field of a question except its
// identity, timestamps and authors.
type QuestionInput struct {
	Scenario  string   `json:"scenario,omitempty" doc:"For a station (MMI, Casper-style): what the candidate reads first. Empty for a question asked on its own."`
	Text      string   `json:"text,omitempty" doc:"The question (a station's prompt). Required."`
	FollowUps []string `json:"followUps,omitempty" doc:"A station's follow-up prompts, in the order they are asked."`
	Subtag    string   `json:"subtag,omitempty" doc:"Ethical, Behavioral, Teamwork, Leadership, Communication, or empty for none."`
	Tip       string   `json:"tip,omitempty" doc:"Advice shown while answering."`
	Big3      bool     `json:"big3,omitempty" doc:"One of the profession's Big 3 questions, asked first."`
	Big3Order int      `json:"big3Order,omitempty" doc:"1, 2 or 3 for a Big 3 question; 0 otherwise."`
	MainTags  []string `json:"mainTags,omitempty" doc:"Profession slugs the question belongs to. At least one is required."`
	Points    []Point  `json:"points,omitempty" doc:"What a strong answer makes, most valuable first; none: the question is judged by the general rubric for its kind."`
	Traps     []Point  `json:"traps,omitempty" doc:"What an answer must not do; an answer that does is capped and told so."`
}

// QuestionEdit is an admin's edit of a question: its fields as the admin
// left them, and the version of the question they were shown. (It takes
// QuestionInput's TransformSchema, and so its published limits, with it.)
type QuestionEdit struct {
	QuestionInput
	Version int `json:"version" minimum:"1" doc:"The question's version the edit was made on, as read with the question. An older one than the stored version is refused (409) with the question as stored."`
}

// StaleEditError is an edit refused because the question was saved after
// the version the edit was made on; Current is the question as stored,
// for the admin to redo their edit on.
type StaleEditError struct{ Current Question }

func (e *StaleEditError) Error() string {
	return fmt.Sprintf("question: edit of %s made on an older version than %d", e.Current.ID, e.Current.Version)
}

// Unwrap is the failure the edit is, for whoever reads only that.
func (e *StaleEditError) Unwrap() error {
	return &apperr.Error{Kind: apperr.KindConflict, Message: FailureEditedMeanwhile.Message, Failure: FailureEditedMeanwhile.Name}
}

// TransformSchema publishes the station limits write checks.
func (QuestionInput) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	httpx.SetMaxLength(s, "scenario", MaxScenarioLen)
	httpx.SetMaxItems(s, "followUps", MaxFollowUps)
	httpx.SetMaxItems(s, "points", MaxPoints)
	httpx.SetMaxItems(s, "traps", MaxTraps)
	return s
}

// Seed inserts every built-in bank question whose seed key was never
// applied, and returns how many it inserted. It never updates a question,
// so an admin's edits survive, and it skips seed keys whose question an
// admin deleted.
func (s *Service) Seed(ctx context.Context) (int, error) {
	bank, err := Bank()
	if err != nil {
		return 0, err
	}
	inserted := 0
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		applied, err := appliedSeeds(ctx, tx)
		if err != nil {
			return err
		}
		pointless, err := seededWithoutPoints(ctx, tx)
		if err != nil {
			return err
		}
		now := s.clock()
		for _, q := range bank {
			if applied[q.SeedKey] {
				if pointless[q.SeedKey] {
					if err := fillPoints(ctx, tx, q); err != nil {
						return err
					}
				}
				continue
			}
			fresh, err := markSeedApplied(ctx, tx, q.SeedKey, now)
			if err != nil {
				return err
			}
			if !fresh {
				continue
			}
			q.ID, q.CreatedAt, q.UpdatedAt, q.CreatedBy, q.UpdatedBy = store.NewID(), now, now, SeedAuthor, SeedAuthor
			if err := saveQuestion(ctx, tx, q, inserting); err != nil {
				return err
			}
			inserted++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("question: seed: %w", err)
	}
	return inserted, nil
}

// Questions returns the questions of one profession, or of every profession
// for an empty slug: the pool Select draws a practice session from.
func (s *Service) Questions(ctx context.Context, professionSlug string) ([]Question, error) {
	f, err := newFilter(professionSlug, "", "")
	if err != nil {
		return nil, err
	}
	return listQuestions(ctx, s.db.SQL, f, 0, 0)
}

// ListQuery is the admin question manager's filter and page.
type ListQuery struct {
	Profession string
	Subtag     string
	Text       string
	Page       int
	PageSize   int
}

// QuestionPage is one page of questions and the number of questions matching.
type QuestionPage struct {
	Questions []Question `json:"questions"`
	Total     int        `json:"total"`
	Page      int        `json:"page"`
	PageSize  int        `json:"pageSize"`
}

// List returns one page of the questions matching lq, newest first.
func (s *Service) List(ctx context.Context, lq ListQuery) (QuestionPage, error) {
	f, err := newFilter(lq.Profession, lq.Subtag, lq.Text)
	if err != nil {
		return QuestionPage{}, err
	}
	page := store.Page(lq.Page)
	size := min(cmp.Or(lq.PageSize, DefaultPageSize), MaxPageSize)
	total, err := countQuestions(ctx, s.db.SQL, f)
	if err != nil {
		return QuestionPage{}, err
	}
	qs, err := listQuestions(ctx, s.db.SQL, f, size, (page-1)*size)
	if err != nil {
		return QuestionPage{}, err
	}
	if qs == nil {
		qs = []Question{}
	}
	return QuestionPage{Questions: qs, Total: total, Page: page, PageSize: size}, nil
}

func newFilter(professionSlug, subtag, text string) (filter, error) {
	var f filter
	if strings.TrimSpace(professionSlug) != "" {
		p, ok := profession.Lookup(professionSlug)
		if !ok {
			return filter{}, apperr.Invalid("profession", "Unknown profession %q; use one of %s.", professionSlug, strings.Join(profession.Slugs(), ", "))
		}
		f.profession = p.Slug
	}
	st, err := ParseSubtag(subtag)
	if err != nil {
		return filter{}, apperr.Invalid("subtag", "Unknown subtag %q; use one of %s.", subtag, subtagList())
	}
	f.subtag = st
	f.text = strings.TrimSpace(text)
	return f, nil
}

// Get returns one question.
func (s *Service) Get(ctx context.Context, id string) (Question, error) {
	q, err := questionByID(ctx, s.db.SQL, id)
	if errors.Is(err, errNotFound) {
		return Question{}, apperr.NotFound(MsgNotFound)
	}
	return q, err
}

// Create adds an admin's question; actor names the admin.
func (s *Service) Create(ctx context.Context, actor string, in QuestionInput) (Question, error) {
	now := s.clock()
	q := Question{ID: store.NewID(), CreatedAt: now, UpdatedAt: now, CreatedBy: actor, UpdatedBy: actor}
	return s.write(ctx, q, in, inserting, FailureIncompleteNew)
}

// Update replaces the editable fields of a question; actor names the admin.
// The seed key stays, so a later seed knows the bank question is present.
// An edit made on an older version than the stored one is a
// *StaleEditError, and saves nothing.
func (s *Service) Update(ctx context.Context, actor, id string, edit QuestionEdit) (Question, error) {
	q, err := s.Get(ctx, id)
	if err != nil {
		return Question{}, err
	}
	q.UpdatedAt, q.UpdatedBy, q.Version = s.clock(), actor, edit.Version
	return s.write(ctx, q, edit.QuestionInput, editing, FailureIncompleteEdit)
}

// write applies in to q, checks it alone and against the rest of the bank,
// and saves it as how says. incomplete is the failure a missing text or
// tag is.
func (s *Service) write(ctx context.Context, q Question, in QuestionInput, how saving, incomplete apperr.Failure) (Question, error) {
	q.Scenario, q.Text, q.FollowUps, q.Subtag, q.Tip, q.Big3, q.Big3Order, q.MainTags = in.Scenario, in.Text, in.FollowUps, Subtag(in.Subtag), in.Tip, in.Big3,
		in.Big3Order, in.MainTags
	q.Points, q.Traps = in.Points, in.Traps
	q = q.Normalize()
	if q.Text == "" || len(q.MainTags) == 0 {
		return Question{}, incomplete.Invalid()
	}
	if ps := q.Problems(); len(ps) > 0 {
		return Question{}, invalid(ps)
	}
	err := s.db.WithTx(ctx, func(tx *sql.Tx) error {
		all, err := listQuestions(ctx, tx, filter{}, 0, 0)
		if err != nil {
			return err
		}
		if ps := newClashIndex(all).problems(q); len(ps) > 0 {
			return &apperr.Error{Kind: apperr.KindConflict, Field: ps[0].Field, Message: sentence(ps)}
		}
		err = saveQuestion(ctx, tx, q, how)
		if errors.Is(err, errStale) {
			return staleEdit(ctx, tx, q.ID)
		}
		return err
	})
	if err != nil {
		return Question{}, fmt.Errorf("question: save: %w", err)
	}
	q.Version++ // 1 for a new question
	return q, nil
}

// staleEdit is why an edit of id was not saved: the question as stored
// now, or that it is gone.
func staleEdit(ctx context.Context, q store.Queryer, id string) error {
	current, err := questionByID(ctx, q, id)
	if errors.Is(err, errNotFound) {
		return apperr.NotFound(MsgNotFound)
	}
	if err != nil {
		return err
	}
	return &StaleEditError{Current: current}
}

func invalid(ps []Problem) error {
	return apperr.Invalid(ps[0].Field, "%s", sentence(ps))
}

func sentence(ps []Problem) string {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.String()
	}
	return strings.Join(msgs, "; ") + "."
}

// Delete removes a question. A deleted bank question stays deleted: its
// seed key remains recorded as applied.
func (s *Service) Delete(ctx context.Context, id string) error {
	ok, err := deleteQuestion(ctx, s.db.SQL, id)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound(MsgNotFound)
	}
	return nil
}

// Export writes every question to w and returns how many it wrote.
func (s *Service) Export(ctx context.Context, w io.Writer, format Format) (int, error) {
	qs, err := listQuestions(ctx, s.db.SQL, filter{}, 0, 0)
	if err != nil {
		return 0, err
	}
	return len(qs), Encode(w, format, qs)
}

// ImportResult counts what an import changed.
type ImportResult struct {
	Inserted int
	Updated  int
}

// Import reads a file of questions and saves them all in one transaction,
// or, when any row is bad, saves nothing and returns an *InvalidRowsError
// naming every bad row. A row updates the stored question with its id, or
// failing that with its seed key (keeping the stored id); other rows are
// inserted. Timestamps and authors in the file are kept, so an export
// re-imports unchanged; missing ones are filled in with now and actor.
func (s *Service) Import(ctx context.Context, actor string, r io.Reader, format Format) (ImportResult, error) {
	rows, err := Decode(r, format)
	if err != nil {
		return ImportResult{}, err
	}
	var res ImportResult
	err = s.db.WithTx(ctx, func(tx *sql.Tx) error {
		existing, err := listQuestions(ctx, tx, filter{}, 0, 0)
		if err != nil {
			return err
		}
		plan, bad := planImport(existing, rows, actor, s.clock())
		if len(bad) > 0 {
			return &InvalidRowsError{Format: format, Rows: bad}
		}
		for _, step := range plan {
			how := inserting
			if step.exists {
				how = replacing
			}
			if err := saveQuestion(ctx, tx, step.q, how); err != nil {
				return err
			}
			if step.exists {
				res.Updated++
			} else {
				res.Inserted++
			}
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("question: import: %w", err)
	}
	return res, nil
}

type importStep struct {
	q      Question
	exists bool
}

// planImport matches each row to the question it replaces, fills in what
// the row leaves out, and checks the bank the import would leave behind.
func planImport(existing, rows []Question, actor string, now time.Time) ([]importStep, []RowError) {
	byID := map[string]Question{}
	bySeed := map[string]Question{}
	for _, q := range existing {
		byID[q.ID] = q
		if q.SeedKey != "" {
			bySeed[q.SeedKey] = q
		}
	}
	var bad []RowError
	report := func(i int, field, format string, args ...any) {
		bad = append(bad, RowError{Row: i + 1, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	steps := make([]importStep, len(rows))
	claimed := map[string]int{}
	for i, q := range rows {
		target, exists := byID[q.ID]
		if owner, ok := bySeed[q.SeedKey]; ok && q.SeedKey != "" {
			switch {
			case !exists:
				// A seed key names a bank question in every database, while
				// ids are local: the row updates this database's copy.
				target, exists = owner, true
			case owner.ID != target.ID:
				report(i, "seedKey", "%q belongs to stored question %s, not %s", q.SeedKey, owner.ID, target.ID)
			}
		}
		if exists {
			if first, dup := claimed[target.ID]; dup {
				report(i, "id", "updates the same stored question %s as row %d", target.ID, first)
			}
			claimed[target.ID] = i + 1
		}
		q.ID = cmp.Or(target.ID, q.ID, store.NewID())
		q.CreatedAt = store.Truncate(cmp.Or(q.CreatedAt, target.CreatedAt, q.UpdatedAt, now))
		q.UpdatedAt = store.Truncate(cmp.Or(q.UpdatedAt, now))
		q.CreatedBy = cmp.Or(q.CreatedBy, target.CreatedBy, actor)
		q.UpdatedBy = cmp.Or(q.UpdatedBy, actor)
		steps[i] = importStep{q: q, exists: exists}
	}

	after := map[string]Question{}
	for _, q := range existing {
		after[q.ID] = q
	}
	for _, st := range steps {
		after[st.q.ID] = st.q
	}
	merged := make([]Question, 0, len(after))
	for _, q := range after {
		merged = append(merged, q)
	}
	ix := newClashIndex(merged)
	for i, st := range steps {
		for _, p := range ix.problems(st.q) {
			report(i, p.Field, "%s", p.Message)
		}
	}
	return steps, bad
}

// clashIndex finds questions that would make a profession's bank
// inconsistent: the same text twice, or two Big 3 questions with one number.
type clashIndex struct {
	texts map[string][]Question
	big3  map[string][]Question
}

func newClashIndex(qs []Question) clashIndex {
	ix := clashIndex{texts: map[string][]Question{}, big3: map[string][]Question{}}
	for _, q := range qs {
		for _, tag := range q.MainTags {
			text, order := clashKeys(tag, q)
			ix.texts[text] = append(ix.texts[text], q)
			if q.Big3 {
				ix.big3[order] = append(ix.big3[order], q)
			}
		}
	}
	return ix
}

// problems lists the clashes between q and the other indexed questions.
func (ix clashIndex) problems(q Question) []Problem {
	var ps []Problem
	for _, tag := range q.MainTags {
		text, order := clashKeys(tag, q)
		for _, o := range ix.texts[text] {
			if o.ID != q.ID {
				ps = append(ps, Problem{Field: "text", Message: fmt.Sprintf("question %s already asks this for %s", o.ID, tag)})
			}
		}
		if !q.Big3 {
			continue
		}
		for _, o := range ix.big3[order] {
			if o.ID != q.ID {
				ps = append(ps, Problem{Field: "big3Order", Message: fmt.Sprintf("question %s (%q) is already Big 3 number %d for %s", o.ID, o.Text, q.Big3Order, tag)})
			}
		}
	}
	return ps
}

func clashKeys(tag string, q Question) (text, big3Order string) {
	return tag + "\x00" + q.askKey(), tag + "\x00" + strconv.Itoa(q.Big3Order)
}
