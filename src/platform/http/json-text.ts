// Answers whose JSON PostgreSQL built (platform/read) go out as that text.
// Fastify runs a route's response-schema serializer on objects only; a
// string sent with a JSON content type is sent as it is, so the schema stays
// the documented contract (OpenAPI) without encoding the answer again.

interface Sends {
  type(contentType: string): { send(payload: never): unknown };
}

export function sendJsonText(reply: Sends, text: string): void {
  reply.type('application/json; charset=utf-8').send(text as never);
}
