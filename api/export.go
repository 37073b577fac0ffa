package api

// MaxExport bounds one conversation's export (32 MiB), over HTTP and
// NPLT: the server refuses a larger one (too_large), and a client reads
// at most this much. chat.MaxExport is this value.
const MaxExport = 32 << 20
