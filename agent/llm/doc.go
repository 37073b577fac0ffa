// Package llm is the planner backed by an OpenAI-compatible chat
// completions API (GLM, DeepSeek, OpenAI, Ollama, …) through
// github.com/sashabaranov/go-openai. It streams text as it arrives,
// assembles tool calls from stream deltas, retries rate limits, server
// errors and connection failures that happen before the first token, and
// falls back to the published text protocol (TOOL: name / ARGS: {json})
// for models without native tool calling. The system prompt (prompt.go)
// lists the commands of Config.Commands, the command_executor tool's own
// command.Tiers.
package llm
