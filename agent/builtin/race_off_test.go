//go:build !race

package builtin

// underRace: see race_on_test.go.
const underRace = false
