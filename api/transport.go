package api

// Transport modes: how an offered file is fetched (Offer.TransportMode,
// the file_download tool's transport_mode argument). The same names
// label each transport in the metrics.
const (
	// TransportRDT fetches the file over RDT (UDP), falling back to NPLT.
	TransportRDT = "rdt"
	// TransportHTTP fetches the file from the offer's download URL.
	TransportHTTP = "http"
	// TransportNPLT fetches the file over the chat connection
	// (FILE_REQUEST).
	TransportNPLT = "nplt"
	// TransportAuto, only as the tool's argument, picks by client type:
	// RDT for ClientCLI and ClientDesktop, HTTP for ClientWeb and
	// ClientMCP, else NPLT.
	TransportAuto = "auto"
)

// Client types: HELLO's client_type and the chat core's Turn.ClientType
// (ClientMCP only as a tool call's client type: the audit log's "client").
const (
	// ClientCLI is the opsassist command line.
	ClientCLI = "cli"
	// ClientDesktop is a desktop client.
	ClientDesktop = "desktop"
	// ClientWeb is the web page (HTTP API).
	ClientWeb = "web"
	// ClientMCP is an MCP client of opsassist's MCP server (/mcp or
	// opsassistd mcp-stdio); never a HELLO's client type.
	ClientMCP = "mcp"
)
