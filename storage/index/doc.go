// Package index is the durable hybrid search index over chunks of files:
// system documents and each conversation's uploads.
//
// Everything is held in memory and made durable on disk:
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
//   - Compact memory. Vectors are quantised to 8 bits (vectors.go) and a
//     file's chunk texts share one string, so the index keeps about 5 MiB
//     per MiB of ordinary text; quotas (Config.MaxUploadText*) bound the
//     uploads' share.
//   - Hybrid retrieval: cosine similarity over the vectors (an exhaustive
//     scan, scan.go) fused with a BM25 keyword index by reciprocal rank,
//     plus a boost for files whose name the query mentions.
//   - Background loading (Start): a server serves while a large index
//     loads, and Search says ErrLoading meanwhile.
//
// Each scope has its own partition (its files and one BM25 index):
// "system" for system docs, "uploads/<conversation>" for each
// conversation's uploads, so a query can only see the partitions its
// scope allows.
package index
