package store

import "fmt"

// In is the SQL condition that column is one of values, with the values
// bound as placeholders after args (so $1… stay the caller's), and the
// arguments to run it with.
func In[T ~string](column string, values []T, args ...any) (string, []any) {
	cond := column + ` IN (`
	for i, v := range values {
		if i > 0 {
			cond += `, `
		}
		args = append(args, string(v))
		cond += fmt.Sprintf("$%d", len(args))
	}
	return cond + `)`, args
}
