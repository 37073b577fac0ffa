// Package confkv reads configuration files — YAML, JSON, TOML, INI, Java
// .properties and .env — into one flat list of settings: each value
// under its dotted key path ("database.port", "servers[0].host") with
// the line it is written on. The offline planner answers questions
// about a setting and compares two files through it, whatever their
// formats.
//
// It only reads. Cost is bounded: the text is at most MaxBytes, nesting
// at most MaxDepth levels, the result at most MaxEntries settings
// (YAML aliases count each time they are followed); a text past a bound
// is refused with ErrTooLarge, ErrTooDeep or ErrTooMany, never read in
// part. A text that is none of the formats is ErrFormat; one that is the
// format its name says but malformed is a *SyntaxError.
package confkv
