package mcp

import (
	"errors"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// Output is what the model is given for a successful call: the text
// contents joined, the structured content as the server sent it, and a
// summary of every other content (never its bytes).
type Output struct {
	Text       string    `json:"text"`
	Structured any       `json:"structured_content,omitempty"`
	Other      []Summary `json:"other_content,omitempty"`
}

// Summary describes a content that is not text: an image, an audio
// clip, a resource link or an embedded resource.
type Summary struct {
	Type     string `json:"type"`
	MIMEType string `json:"mime_type,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	URI      string `json:"uri,omitempty"`
	Name     string `json:"name,omitempty"`
}

// errToolFailed is the error of a call the server answered with
// isError and no text.
var errToolFailed = errors.New("the tool reported an error without a message")

// convert turns a call's result into the tool's output, or its error
// when the server set isError (the text contents as the error, class
// execution).
func convert(res *sdk.CallToolResult) (any, error) {
	var out Output
	var texts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			texts = append(texts, c.Text)
		case *sdk.ImageContent:
			out.Other = append(out.Other, Summary{Type: "image", MIMEType: c.MIMEType, Bytes: len(c.Data)})
		case *sdk.AudioContent:
			out.Other = append(out.Other, Summary{Type: "audio", MIMEType: c.MIMEType, Bytes: len(c.Data)})
		case *sdk.ResourceLink:
			s := Summary{Type: "resource_link", MIMEType: c.MIMEType, URI: c.URI, Name: c.Name}
			if c.Size != nil {
				s.Bytes = int(*c.Size)
			}
			out.Other = append(out.Other, s)
		case *sdk.EmbeddedResource:
			s := Summary{Type: "resource"}
			if r := c.Resource; r != nil {
				s.URI, s.MIMEType, s.Bytes = r.URI, r.MIMEType, len(r.Text)+len(r.Blob)
			}
			out.Other = append(out.Other, s)
		default:
			out.Other = append(out.Other, Summary{Type: "unknown"})
		}
	}
	out.Text = strings.Join(texts, "\n")
	out.Structured = res.StructuredContent
	if res.IsError {
		if out.Text == "" {
			return out, tools.WithClass(tools.ClassExecution, errToolFailed)
		}
		return out, tools.WithClass(tools.ClassExecution, errors.New(out.Text))
	}
	return out, nil
}
