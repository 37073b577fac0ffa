// Package index is the durable hybrid search index over chunks of files:
// system documents and each conversation's uploads.
//
// chromem-go is the in-memory vector engine; this package adds what it
// lacks for a server that must not lose or duplicate what it indexed:
//
//   - Durability. Every change (a file's chunks put, a file deleted) is one
//     record appended to a write-ahead log and fsynced before the call
//     returns. A compacted snapshot is written now and then to a temp file,
//     fsynced and renamed into place; start-up loads the snapshot and
//     replays the logs written since. A record cut short by a crash is
//     dropped, so a file is either fully present or absent (and its owner
//     re-indexes it).
//   - One writer. Puts, deletes and snapshots are serialised; queries run
//     concurrently with them and never see half a file.
//   - Our own embedding function on every collection (never chromem's
//     remote default), n clamped to the collection size, and no on-disk
//     file names derived from document ids.
//   - Hybrid retrieval: cosine similarity over the vectors fused with a
//     BM25 keyword index by reciprocal rank, plus a boost for files whose
//     name the query mentions.
//
// Each scope has its own partition (one chromem collection and one BM25
// index): "system" for system docs, "uploads/<conversation>" for each
// conversation's uploads, so a query can only see the partitions its
// scope allows.
package index
