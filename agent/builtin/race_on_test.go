//go:build race

package builtin

// underRace tells the property tests that run every rule over thousands
// of texts (TestGateKeepsAnswers, TestNarrowedKeepsAnswers) to sample a
// quarter of them: the race detector slows the regexp engine about
// tenfold, and those tests start no goroutines for it to check (the
// hostile shapes are also cut to 256 bytes there). The
// plain `go test` run and the fuzz targets cover every text.
const underRace = true
