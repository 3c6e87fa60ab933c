// Command whitecoat is the Whitecoat server and its operator tools.
package main

import (
	"os"

	"github.com/whitecoat/whitecoat/internal/app"
)

func main() { os.Exit(app.Main()) }
