package route

import (
	"fmt"

	"github.com/danielgtaylor/huma/v2"

	"github.com/whitecoat/whitecoat/internal/apperr"
	"github.com/whitecoat/whitecoat/internal/httpx"
)

// failuresKey is the OpenAPI extension listing the failures the web words.
const failuresKey = "x-failures"

// PublishFailures states failures in the API contract, under x-failures:
// each one's problem type and the words the spec gives it. `make generate`
// turns them into web/src/api/failures.ts, so the web tells a failure apart
// by its type (or an item's status) and shows the words without a copy.
func PublishFailures(api huma.API, failures ...apperr.Failure) {
	doc := api.OpenAPI()
	if doc.Extensions == nil {
		doc.Extensions = map[string]any{}
	}
	published, _ := doc.Extensions[failuresKey].(map[string]any)
	if published == nil {
		published = map[string]any{}
		doc.Extensions[failuresKey] = published
	}
	for _, f := range failures {
		if _, taken := published[f.Name]; taken {
			panic(fmt.Sprintf("route: failure %q published twice", f.Name))
		}
		published[f.Name] = map[string]string{"type": httpx.ProblemType(f.Name), "message": f.Message}
	}
}
