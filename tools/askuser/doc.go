// Package askuser will hold the user-interaction tool: a question the
// agent or the permission policy puts to the person in the conversation
// ("run systemctl restart nginx?", "which host?"), answered from whichever
// client they use. It is empty today; confirmations come with the
// permission work (issue 12).
//
// It plugs in twice: as a tools.Tool registered in the tools.Registry,
// so the model can ask, and as the way the Registry resolves a
// tools.Policy's Ask decision instead of refusing the call. The question
// goes out as a chat event through the chat core, which each transport
// renders; the answer comes back on the connection's reader. Waiting is
// a one-shot answer slot registered under a fresh id before the question
// is sent, with a deadline and ctx (house style rule 18): every question
// is answered exactly once, even on timeout or disconnect.
package askuser
