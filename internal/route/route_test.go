package route

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/whitecoat/whitecoat/internal/apperr"
)

type nameOutput struct {
	Body struct {
		Name string `json:"name"`
	}
}

func greet(_ context.Context, name string, _ *struct{}) (*nameOutput, error) {
	out := &nameOutput{}
	out.Body.Name = name
	return out, nil
}

// admitAda admits Ada to public and user operations and refuses the rest.
func admitAda(_ context.Context, level Access) (string, error) {
	if level == AccessPublic || level == AccessUser {
		return "Ada", nil
	}
	return "", apperr.Forbidden("Only admins can do this.")
}

// newNameAPI serves GET /name at level, behind the guard with admit unless
// admit is nil.
func newNameAPI(t *testing.T, level Access, admit Admit[string]) humatest.TestAPI {
	_, api := humatest.New(t)
	if admit != nil {
		api.UseMiddleware(Guard(api, admit))
	}
	Register(api, Endpoint{ID: "name", Method: http.MethodGet, Path: "/name", Access: level}, greet)
	return api
}

func TestGuardHandsTheAdmittedCallerToTheHandlerOrTheRefusalToTheClient(t *testing.T) {
	if resp := newNameAPI(t, AccessUser, admitAda).Get("/name"); resp.Code != http.StatusOK || !strings.Contains(resp.Body.String(), `"name":"Ada"`) {
		t.Fatalf("%d %s; want 200 for Ada", resp.Code, resp.Body)
	}
	resp := newNameAPI(t, AccessAdmin, admitAda).Get("/name")
	if resp.Code != http.StatusForbidden || !strings.Contains(resp.Body.String(), "Only admins can do this.") ||
		resp.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s %s; want a 403 problem", resp.Code, resp.Header(), resp.Body)
	}
}

// Without the guard nobody checked the caller, so the handler never runs.
func TestEndpointFailsClosedWithoutTheGuard(t *testing.T) {
	resp := newNameAPI(t, AccessPublic, nil).Get("/name")
	if resp.Code != http.StatusInternalServerError || strings.Contains(resp.Body.String(), "Ada") {
		t.Fatalf("%d %s; want 500", resp.Code, resp.Body)
	}
}

// An operation registered around Register, without a level, is refused
// by the guard before anyone is admitted.
func TestGuardRefusesAnOperationWithoutAnAccessLevel(t *testing.T) {
	_, api := humatest.New(t)
	api.UseMiddleware(Guard(api, admitAda))
	huma.Get(api, "/bare", func(context.Context, *struct{}) (*nameOutput, error) { return &nameOutput{}, nil })
	if resp := api.Get("/bare"); resp.Code != http.StatusInternalServerError {
		t.Fatalf("%d %s; want 500", resp.Code, resp.Body)
	}
}

func TestRegisterRefusesAnEndpointWithoutAnAccessLevel(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("registered an endpoint that declares no access level")
		}
	}()
	newNameAPI(t, "", admitAda)
}

// An endpoint that declares no limit takes a JSON body up to MaxJSONBytes.
func TestAnEndpointWithoutALimitTakesTheJSONLimit(t *testing.T) {
	if got := (Endpoint{}).operation().MaxBodyBytes; got != MaxJSONBytes {
		t.Fatalf("MaxBodyBytes %d; want %d", got, MaxJSONBytes)
	}
	if got := (Endpoint{MaxBodyBytes: MaxFormBytes}).operation().MaxBodyBytes; got != MaxFormBytes {
		t.Fatalf("MaxBodyBytes %d; want %d", got, MaxFormBytes)
	}
}
