// Answers whose JSON PostgreSQL built (platform/read) go out as that text.
// Fastify runs a route's response-schema serializer on objects only; a
// string sent with a JSON content type is sent as it is, so the schema stays
// the documented contract (OpenAPI) without encoding the answer again.

interface Sends {
  type(contentType: string): { send(payload: never): unknown };
}

/**
 * Sends `text` and returns the reply, which the handler must return: an async
 * handler that resolves to undefined while an onSend hook (compression) is
 * still working would have Fastify send again, with an empty body. Typed
 * `never` so it fits the route's declared answer, which the text already is.
 */
export function sendJsonText(reply: Sends, text: string): never {
  return reply.type('application/json; charset=utf-8').send(text as never) as never;
}
