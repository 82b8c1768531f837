// REST: one-step upload (POST /api/files), the PUT of a two-step upload
// (PUT /api/uploads/:id) and downloads (GET /api/files/:id).
//
// The upload routes live in an encapsulated plugin whose only body parser hands
// the raw request stream through, so a file of any type is streamed to storage
// and never parsed or buffered; the rest of the app keeps its JSON parser.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import { FILE_CSP } from '../../platform/http/security-headers.js';
import type { Http } from '../../platform/http/types.js';
import { contentDisposition } from './names.js';
import { UPLOAD_FILES } from './policy.js';
import { FileSchema } from './present.js';
import {
  completeUpload,
  confirmUpload,
  createUploadGrant,
  declaredLength,
  fileJson,
  MAX_FILE_BYTES,
  openFile,
  uploadFile,
} from './service.js';

const FileEnvelope = Type.Object({ file: FileSchema });
const UploadGrantSchema = Type.Object({
  uploadFile: Type.Object({
    uploadUrl: Type.String(),
    assetUrl: Type.String(),
    headers: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
    contentType: Type.String(),
    filename: Type.String(),
    size: Type.Integer(),
    expiresAt: Type.String({ format: 'date-time' }),
  }),
});

/** The request body as a stream: the raw request, or an empty stream when there was no body. */
const bodyStream = (body: unknown): Readable => (body instanceof Readable ? body : Readable.from([]));

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function filesRoutes(app: Http, ctx: AppContext): void {
  app.register(async (files) => {
    const http = files as unknown as Http;
    http.removeAllContentTypeParsers();
    http.addContentTypeParser(
      '*',
      (_req: unknown, payload: IncomingMessage, done: (e: null, b: unknown) => void) => done(null, payload),
    );
    // A refused upload leaves the rest of its body unread; closing the
    // connection keeps those bytes from being read as a next request.
    http.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode >= 400) reply.header('connection', 'close');
      return payload;
    });

    http.post(
      '/api/files',
      {
        config: { auth: UPLOAD_FILES },
        bodyLimit: MAX_FILE_BYTES + 1,
        schema: {
          tags: ['files'],
          summary: 'Upload a file in one step: the raw body is the file (at most 25 MB)',
          description:
            'Send the bytes as the body, the type as Content-Type and the name as x-filename ' +
            '(percent-encoded). Answers 413 for more than 26,214,400 bytes.',
          headers: Type.Object({
            'x-filename': Type.Optional(Type.String({ description: 'Percent-encoded file name' })),
          }),
          response: { 201: FileEnvelope, ...errors(400, 401, 403, 413) },
        },
      },
      async (req, reply) => {
        const file = await uploadFile(ctx, actorOf(req), {
          body: bodyStream(req.body),
          filename: header(req.headers['x-filename']),
          contentType: req.headers['content-type'],
          contentLength: declaredLength(req.headers['content-length']),
        });
        return sendJsonText(reply.status(201), await fileJson(ctx, actorOf(req), file));
      },
    );

    http.put(
      '/api/uploads/:id',
      {
        config: { auth: UPLOAD_FILES },
        bodyLimit: MAX_FILE_BYTES + 1,
        schema: {
          tags: ['files'],
          summary: 'Second step of a two-step upload: PUT the bytes to the signed uploadUrl',
          params: IdParams,
          querystring: Type.Object({
            expires: Type.Integer({ minimum: 0 }),
            signature: Type.String({ minLength: 1, maxLength: 200 }),
          }),
          response: { 200: FileEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
        },
      },
      async (req, reply) => {
        const file = await completeUpload(ctx, actorOf(req), {
          id: req.params.id,
          expires: req.query.expires,
          signature: req.query.signature,
          contentType: req.headers['content-type'],
          contentLength: declaredLength(req.headers['content-length']),
          body: bodyStream(req.body),
        });
        return sendJsonText(reply, await fileJson(ctx, actorOf(req), file));
      },
    );
  });

  app.post(
    '/api/uploads',
    {
      config: { auth: UPLOAD_FILES },
      schema: {
        tags: ['files'],
        summary:
          'First step of a two-step upload: declare the file, get a signed uploadUrl (REST twin of fileUpload)',
        body: Type.Object(
          {
            contentType: Type.String({ minLength: 1, maxLength: 255 }),
            filename: Type.String({ maxLength: 1000 }),
            size: Type.Integer({ description: 'Bytes, 1 to 26,214,400' }),
          },
          { additionalProperties: false },
        ),
        response: { 201: UploadGrantSchema, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const g = await createUploadGrant(ctx, actorOf(req), req.body);
      return reply.status(201).send({
        uploadFile: {
          uploadUrl: g.uploadUrl,
          assetUrl: g.assetUrl,
          headers: g.headers,
          contentType: g.file.content_type,
          filename: g.file.filename,
          size: Number(g.file.size),
          expiresAt: g.expiresAt.toISOString(),
        },
      });
    },
  );

  app.post(
    '/api/uploads/:id/complete',
    {
      config: { auth: UPLOAD_FILES },
      schema: {
        tags: ['files'],
        summary: 'Confirm a two-step upload: the file once its bytes have arrived (400 while they have not)',
        description:
          'Needed only with S3_PRESIGNED_UPLOADS, where the bytes go straight to the bucket; a download ' +
          'of the assetUrl confirms the upload too. Answers the same file again once complete.',
        params: IdParams,
        response: { 200: FileEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(reply, await fileJson(ctx, actor, await confirmUpload(ctx, actor, req.params.id)));
    },
  );

  app.get(
    '/api/files/:id',
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file',
        description:
          'Streams the bytes with the stored Content-Type. Images, PDF and plain text are inline; ' +
          'everything else is an attachment. A sandboxing Content-Security-Policy keeps uploaded ' +
          'HTML or SVG from running.',
        params: IdParams,
        response: { ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const { file, stream } = await openFile(ctx, actorOf(req), req.params.id);
      return reply
        .header('content-type', file.content_type)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(file.filename, file.content_type))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP)
        .header('cross-origin-resource-policy', 'same-origin')
        .header('cache-control', 'private, max-age=3600')
        .send(stream);
    },
  );
}
