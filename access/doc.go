// Package access is who is who: the configured users (config users:),
// the single auth_token's admin, and the check of a presented access
// token. It is the one owner of token comparison: the NPLT and HTTP
// transports ask a Directory who a token belongs to and get the
// chat.Principal their sessions act for.
//
// Tokens are kept only as SHA-256 hashes (a user configured with
// token_env is hashed when the directory is built); a presented token
// is hashed and compared with every user's hash in constant time, so
// neither the time taken nor the logs tell which user, if any, came
// close. Nothing here logs a token or a hash.
package access
