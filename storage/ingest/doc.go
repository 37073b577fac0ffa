// Package ingest turns files into text and splits the text into chunks
// for indexing.
//
// Extract reads plain text, Markdown, configuration files, logs, CSV,
// source code and PDF (pure Go); anything else is refused with a
// *SkipError that records why. Chunk cuts a document's text on line
// boundaries into pieces of about 500 runes that overlap by about 50,
// each labelled with its line range or, in Markdown, its heading.
package ingest
