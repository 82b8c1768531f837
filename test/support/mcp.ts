// A raw MCP request, as a client without the SDK sends it: a stateless JSON-RPC POST to /mcp.

/** POSTs `tools/list` to `base`/mcp with `token`; the response, unread. */
export const mcpToolsList = (base: string, token: string): Promise<Response> =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
