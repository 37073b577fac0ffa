// Package toolcall is the one owner of the rules every transport applies
// to the tool catalog and to direct tool calls (HTTP's GET /api/tools and
// POST /api/tools/{name}, NPLT's TOOL_LIST and TOOL_CALL): the interfaces
// the daemon implements, the catalog's shape, and the checks a direct
// call passes before it reaches the registry's policy, rate limits and
// audit log. It imports no transport; the transports map its errors'
// api codes onto their own answers.
package toolcall
