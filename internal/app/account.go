package app

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/auth"
	"github.com/whitecoat/whitecoat/internal/billing"
	"github.com/whitecoat/whitecoat/internal/practice"
)

// Data rights span every domain, so the app puts them together: the
// export asks each domain for what it keeps about the user, and deletion
// lets each delete its own rows in one transaction — practice, then
// billing (which keeps the payment records accounting requires, detached),
// then auth, which deletes the account last.

// DataExport is everything Whitecoat holds about a user.
type DataExport struct {
	ExportedAt    time.Time          `json:"exportedAt"`
	Account       auth.User          `json:"account"`
	Sessions      []practice.Session `json:"sessions"`
	SavedSessions []practice.Saved   `json:"savedSessions"`
	Payments      []billing.Payment  `json:"payments"`
	// VoiceFactor is how the speech engine scales the user's voice, when
	// it remembers that from their answers.
	VoiceFactor *practice.VoiceFactor `json:"voiceFactor,omitempty"`
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
	return DataExport{ExportedAt: a.now().UTC(), Account: u, Sessions: ex.Sessions, SavedSessions: ex.SavedSessions, Payments: payments,
		VoiceFactor: ex.VoiceFactor}, nil
}

// deleteAccount deletes u and everything about them but the payment
// records billing.KeptRecords names, ends every sign-in (they are rows of
// the account) and confirms by email.
func (a *App) deleteAccount(ctx context.Context, u auth.User) error {
	var recordings []string
	err := a.db.WithTx(ctx, func(tx *sql.Tx) error {
		var err error
		if recordings, err = a.practice.DeleteUserData(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := a.billing.DetachPayments(ctx, tx, u.ID); err != nil {
			return err
		}
		return a.auth.DeleteUser(ctx, tx, u.ID)
	})
	if err != nil {
		return err
	}
	a.practice.RemoveRecordings(recordings)
	a.auth.SendAccountDeleted(u, billing.KeptRecords)
	a.logger.Info("account deleted", "user", u.ID)
	return nil
}

var dataTags = []string{"Your data"}

const dataBodyLimit = 16 << 10

func registerDataRoutes(api huma.API, a *App) {
	auth.Register(api, auth.Endpoint{ID: "export-my-data", Method: http.MethodGet, Path: "/api/account/export",
		Summary: "Download my data (JSON)", Description: "Everything Whitecoat holds about the signed-in user: account, sessions with answers and feedback, saved sessions, payments and the voice factor the speech engine remembers.",
		Tags: dataTags, Access: auth.AccessUser, MaxBodyBytes: dataBodyLimit}, a.exportMine)
	auth.Register(api, auth.Endpoint{ID: "export-my-data-csv", Method: http.MethodGet, Path: "/api/account/export.csv",
		Summary: "Download my sessions and answers (CSV)", Description: "One row per question: the answer's transcript and feedback.",
		Tags: dataTags, Access: auth.AccessUser, MaxBodyBytes: dataBodyLimit}, a.exportMineCSV)
	auth.Register(api, auth.Endpoint{ID: "delete-my-account", Method: http.MethodPost, Path: "/api/account/delete",
		Summary: "Delete my account", Description: "Needs the account's password. Deletes the account, its sessions, saved sessions and recordings and ends every sign-in; " + billing.KeptRecords,
		Tags: dataTags, Status: http.StatusOK, Access: auth.AccessUser, MaxBodyBytes: dataBodyLimit}, a.deleteMine)
	auth.Register(api, auth.Endpoint{ID: "admin-export-user-data", Method: http.MethodGet, Path: "/api/admin/users/{id}/export",
		Summary: "A user's data (JSON), on their request", Tags: dataTags, Access: auth.AccessAdmin, MaxBodyBytes: dataBodyLimit}, a.exportUser)
	auth.Register(api, auth.Endpoint{ID: "admin-export-user-data-csv", Method: http.MethodGet, Path: "/api/admin/users/{id}/export.csv",
		Summary: "A user's sessions and answers (CSV), on their request", Tags: dataTags, Access: auth.AccessAdmin, MaxBodyBytes: dataBodyLimit}, a.exportUserCSV)
	auth.Register(api, auth.Endpoint{ID: "admin-delete-user", Method: http.MethodDelete, Path: "/api/admin/users/{id}",
		Summary: "Delete a user's account, on their request", Description: "As the user's own deletion, without their password. " + billing.KeptRecords,
		Tags: dataTags, Access: auth.AccessAdmin, MaxBodyBytes: dataBodyLimit}, a.deleteUser)
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
		Password string `json:"password" maxLength:"1024"`
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
	if err := a.auth.ConfirmPassword(ctx, u, in.Body.Password); err != nil {
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

func (a *App) deleteUser(ctx context.Context, _ auth.User, in *userIDInput) (*deletedOutput, error) {
	u, err := a.auth.UserByID(ctx, in.UserID)
	if err != nil {
		return nil, err
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
