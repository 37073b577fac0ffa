package api

// MinSessionPrefix is the fewest characters of a conversation id the
// server resolves as a prefix (NPLT SESSION_SWITCH, HELLO's session_id,
// the HTTP session paths): a shorter one names a conversation only when
// it is the whole id. storage/history.MinPrefix is this value; the CLI
// reads it to know when to resolve a prefix itself (--session, /switch)
// and how short a /delete id may be.
const MinSessionPrefix = 4
