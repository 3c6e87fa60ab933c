package question

import (
	"bytes"
	_ "embed"
	"fmt"
)

//go:embed bank/questions.json
var bankJSON []byte

// stationsJSON holds the bank's scenario stations, for the MMI and
// Casper-style formats.
//
//go:embed bank/scenarios.json
var stationsJSON []byte

// Bank returns the built-in questions written for Whitecoat, in file order.
// Each has a unique SeedKey and no ID, timestamps or authors: the store
// assigns those when it inserts a question whose seed key it does not have.
func Bank() ([]Question, error) {
	var qs []Question
	for _, file := range [][]byte{bankJSON, stationsJSON} {
		part, err := Decode(bytes.NewReader(file), FormatJSON)
		if err != nil {
			return nil, fmt.Errorf("question: built-in bank: %w", err)
		}
		qs = append(qs, part...)
	}
	for i, q := range qs {
		if q.SeedKey == "" || q.ID != "" || !q.CreatedAt.IsZero() || !q.UpdatedAt.IsZero() || q.CreatedBy != "" || q.UpdatedBy != "" {
			return nil, fmt.Errorf("question: built-in bank: row %d must have a seedKey and no id, timestamps or authors", i+1)
		}
	}
	return qs, nil
}
