package web

import "opsassist/internal/authlimit"

// CodeTooManyAttempts answers an address that sent too many wrong
// tokens (authlimit decides; NPLT answers with the same code).
const CodeTooManyAttempts = authlimit.Code
