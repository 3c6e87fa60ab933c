package app

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/history"
	"github.com/whitecoat/whitecoat/internal/jobs"
	"github.com/whitecoat/whitecoat/internal/practice"
	"github.com/whitecoat/whitecoat/internal/route"
	"github.com/whitecoat/whitecoat/internal/share"
)

// Data rights span every domain, so the app puts them together: the
// export asks each domain for what it keeps about the user, and deletion
// lets each delete its own rows in one transaction — practice, history
// (the saved sessions), sharing
// (links and the comments left through them), then billing (the pass; it
// keeps the payment records accounting requires, detached), then auth,
// which deletes the account last.

// DataExport is everything Whitecoat holds about a user.
type DataExport struct {
	ExportedAt    time.Time          `json:"exportedAt"`
	Account       auth.User          `json:"account"`
	Sessions      []practice.Session `json:"sessions"`
	SavedSessions []history.Saved    `json:"savedSessions"`
	// Pass is the Premium pass the payments bought.
	Pass     billing.Pass      `json:"pass"`
	Payments []billing.Payment `json:"payments"`
	// Sharing is every link the user made to a saved session and every
	// comment reviewers left through them.
	Sharing share.Export `json:"sharing"`
	// VoiceFactor is how the speech engine scales the user's voice, when
	// it remembers that from their answers.
	VoiceFactor *practice.VoiceFactor `json:"voiceFactor,omitempty"`
	// Averages are the spec's rollingAverageScore and lastAverageScore,
	// computed from the sessions when exported.
	Averages practice.Averages `json:"averages"`
	// Stats are the spec's sessionsCompleted and questionsPracticed,
	// counted from the sessions when exported.
	Stats practice.Stats `json:"stats"`
}

func (a *App) exportData(ctx context.Context, u auth.User) (DataExport, error) {
	ex, err := a.practice.Export(ctx, u.ID)
	if err != nil {
		return DataExport{}, err
	}
	payments, err := a.billing.Payments(ctx, u.ID)
	if err != nil {
		return DataExport{}, err
	}
	pass, err := a.billing.PassOf(ctx, u.ID)
	if err != nil {
		return DataExport{}, err
	}
	saved, err := a.history.AllSaved(ctx, u.ID)
	if err != nil {
		return DataExport{}, err
	}
	sharing, err := a.share.Export(ctx, u)
	if err != nil {
		return DataExport{}, err
	}
	return DataExport{ExportedAt: a.now().UTC(), Account: u, Sessions: ex.Sessions, SavedSessions: saved, Pass: pass, Payments: payments,
		Sharing: sharing, VoiceFactor: ex.VoiceFactor, Averages: ex.Averages, Stats: ex.Stats}, nil
}

// deleteAccount erases u (eraseAccount) and confirms by email.
func (a *App) deleteAccount(ctx context.Context, u auth.User) error {
	if err := a.eraseAccount(ctx, u); err != nil {
		return err
	}
	a.auth.SendAccountDeleted(u, billing.KeptRecords)
	a.logger.Info("account deleted", "user", u.ID)
	return nil
}

// eraseAccount deletes u and everything about them but the payment records
// billing.KeptRecords names, and ends every sign-in (they are rows of the
// account); the jobs whose arguments carry the account's ids or those of
// its sessions and answers go too. It tells nobody: auth also uses it to
// replace an unverified account that holds the address of a Firebase
// sign-in, whose owner did not ask for a deletion.
func (a *App) eraseAccount(ctx context.Context, u auth.User) error {
	// Read before the transaction: SQLite's one connection is the
	// transaction's until it ends.
	ex, err := a.practice.Export(ctx, u.ID)
	if err != nil {
		return err
	}
	ids := []string{u.ID, u.Email}
	for _, s := range ex.Sessions {
		ids = append(ids, s.ID)
		for _, it := range s.Items {
			ids = append(ids, it.ID)
		}
	}
	var recordings []string
	err = a.db.WithTx(ctx, func(tx *sql.Tx) error {
		// The free sessions used are kept with the spent trial (see
		// auth.DeleteUser): counted before practice deletes the sessions.
		used, err := practice.UsedSessionCounter{}.UsedSessions(ctx, tx, u.ID, "")
		if err != nil {
			return err
		}
		if recordings, err = a.practice.DeleteUserData(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := a.history.DeleteUserData(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := a.share.DeleteUserData(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := a.billing.DeleteUserData(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := jobs.ForgetArgs(ctx, a.db, tx, ids); err != nil {
			return err
		}
		return a.auth.DeleteUser(ctx, tx, u, used)
	})
	if err != nil {
		return err
	}
	a.practice.RemoveRecordings(recordings)
	return nil
}

// listedAccounts fills in the admin users table what billing and sharing
// keep about each account of the page: its Premium pass and the sessions
// it shares, each read in one query for the page.
func (a *App) listedAccounts(ctx context.Context, users []auth.UserSummary) error {
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	passes, err := a.billing.PassesOf(ctx, ids)
	if err != nil {
		return err
	}
	shared, err := a.share.SharedSessionCounts(ctx, a.db.SQL, ids)
	if err != nil {
		return err
	}
	for i := range users {
		p := passes[users[i].ID]
		users[i].HasPaid, users[i].SubscriptionEndsAt, users[i].SharedSessions = p.Paid, p.EndsAt, shared[users[i].ID]
	}
	return nil
}

var dataTags = []string{"Your data"}

func registerDataRoutes(api huma.API, a *App) {
	route.Register(api, route.Endpoint{ID: "export-my-data", Method: http.MethodGet, Path: "/api/account/export",
		Summary: "Download my data (JSON)", Description: "Everything Whitecoat holds about the signed-in user: account, sessions with answers and feedback, saved sessions, share links with reviewers' comments, payments and the voice factor the speech engine remembers.",
		Tags: dataTags, Access: route.AccessUser, MaxBodyBytes: route.MaxFormBytes}, a.exportMine)
	route.Register(api, route.Endpoint{ID: "export-my-data-csv", Method: http.MethodGet, Path: "/api/account/export.csv",
		Summary: "Download my sessions and answers (CSV)", Description: "One row per question: the answer's transcript and feedback.",
		Tags: dataTags, Access: route.AccessUser, MaxBodyBytes: route.MaxFormBytes}, a.exportMineCSV)
	route.Register(api, route.Endpoint{ID: "delete-my-account", Method: http.MethodPost, Path: "/api/account/delete",
		Summary: "Delete my account", Description: "Needs the account's password, or (for an account made by a Firebase sign-in, which has none its owner knows) a Firebase ID token from a sign-in to the same address within the last 5 minutes. Deletes the account, its sessions, saved sessions, share links with their comments and recordings and ends every sign-in; " + billing.KeptRecords,
		Tags: dataTags, Status: http.StatusOK, Access: route.AccessUser, MaxBodyBytes: route.MaxFormBytes}, a.deleteMine)
	route.Register(api, route.Endpoint{ID: "admin-export-user-data", Method: http.MethodGet, Path: "/api/admin/users/{id}/export",
		Summary: "A user's data (JSON), on their request", Tags: dataTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, a.exportUser)
	route.Register(api, route.Endpoint{ID: "admin-export-user-data-csv", Method: http.MethodGet, Path: "/api/admin/users/{id}/export.csv",
		Summary: "A user's sessions and answers (CSV), on their request", Tags: dataTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, a.exportUserCSV)
	route.Register(api, route.Endpoint{ID: "admin-delete-user", Method: http.MethodDelete, Path: "/api/admin/users/{id}",
		Summary: "Delete a user's account, on their request", Description: "As the user's own deletion, without their password. An admin account can be deleted here only by itself: an operator first removes another admin's role (whitecoat user demote). " + billing.KeptRecords,
		Tags: dataTags, Access: route.AccessAdmin, MaxBodyBytes: route.MaxFormBytes}, a.deleteUser)
}

type exportOutput struct {
	ContentDisposition string `header:"Content-Disposition"`
	Body               DataExport
}

type csvOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	Body               []byte
}

type userIDInput struct {
	UserID string `path:"id" maxLength:"64"`
}

type deleteAccountInput struct {
	Body struct {
		Password string `json:"password,omitempty" maxLength:"1024" doc:"The account's password; give this or idToken."`
		IDToken  string `json:"idToken,omitempty" maxLength:"8192" doc:"A Firebase ID token from a sign-in to the account's address within the last 5 minutes, for an account without a password of its own."`
	}
}

type deletedOutput struct {
	Body struct {
		Message string `json:"message" doc:"What was deleted and which records were kept."`
	}
}

func (a *App) exportMine(ctx context.Context, u auth.User, _ *struct{}) (*exportOutput, error) {
	return a.exportJSON(ctx, u)
}

func (a *App) exportMineCSV(ctx context.Context, u auth.User, _ *struct{}) (*csvOutput, error) {
	return a.exportCSV(ctx, u)
}

func (a *App) deleteMine(ctx context.Context, u auth.User, in *deleteAccountInput) (*deletedOutput, error) {
	confirm := a.auth.ConfirmPassword
	proof := in.Body.Password
	if in.Body.IDToken != "" {
		confirm, proof = a.auth.ConfirmFreshSignIn, in.Body.IDToken
	}
	if err := confirm(ctx, u, proof); err != nil {
		return nil, err
	}
	return a.deleted(ctx, u)
}

func (a *App) exportUser(ctx context.Context, _ auth.User, in *userIDInput) (*exportOutput, error) {
	u, err := a.auth.UserByID(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	return a.exportJSON(ctx, u)
}

func (a *App) exportUserCSV(ctx context.Context, _ auth.User, in *userIDInput) (*csvOutput, error) {
	u, err := a.auth.UserByID(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	return a.exportCSV(ctx, u)
}

// deleteUser deletes an account for an admin. Another admin's account is
// refused: one admin (or whoever took over their browser) must not be able
// to remove the others; an operator demotes an admin first.
func (a *App) deleteUser(ctx context.Context, admin auth.User, in *userIDInput) (*deletedOutput, error) {
	u, err := a.auth.UserByID(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	if u.IsAdmin() && u.ID != admin.ID {
		return nil, apperr.Forbidden(MsgAdminNotDeletable)
	}
	return a.deleted(ctx, u)
}

func (a *App) exportJSON(ctx context.Context, u auth.User) (*exportOutput, error) {
	ex, err := a.exportData(ctx, u)
	if err != nil {
		return nil, err
	}
	return &exportOutput{ContentDisposition: `attachment; filename="whitecoat-data.json"`, Body: ex}, nil
}

func (a *App) exportCSV(ctx context.Context, u auth.User) (*csvOutput, error) {
	ex, err := a.practice.Export(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := ex.WriteCSV(&buf); err != nil {
		return nil, err
	}
	return &csvOutput{ContentType: "text/csv; charset=utf-8", ContentDisposition: `attachment; filename="whitecoat-sessions.csv"`, Body: buf.Bytes()}, nil
}

// MsgAdminNotDeletable refuses an admin's deletion of another admin.
const MsgAdminNotDeletable = "An admin account can be deleted only by its owner. An operator can first remove the admin role (whitecoat user demote EMAIL)."

// MsgAccountDeleted tells what a deletion removed and kept.
const MsgAccountDeleted = "The account and everything in it have been deleted, and every sign-in has ended. " + billing.KeptRecords

func (a *App) deleted(ctx context.Context, u auth.User) (*deletedOutput, error) {
	if err := a.deleteAccount(ctx, u); err != nil {
		return nil, err
	}
	out := &deletedOutput{}
	out.Body.Message = MsgAccountDeleted
	return out, nil
}
