// Loaded with `node --import` into a third-party client of the Linear API that
// we run as a child process in tests (MCP servers, the importer CLI). Those
// clients hard-code https://api.linear.app, and the point of the test is to run
// them unmodified, so the redirect happens underneath them:
//
// - globalThis.fetch: every client we drive reaches the API through it
//   (@linear/sdk 88 and 95 call globalThis.fetch; @linear/sdk 38 goes through
//   isomorphic-unfetch, which takes global.fetch when it exists, as on Node 20).
// - node:https request/get: no client we drive uses it for the API today, but
//   @linear/import bundles node-fetch (for GitHub), so a future version could;
//   redirected the same way rather than silently reaching the internet.
//
// Any other non-loopback destination is refused: the tests run without network.
//
// Every GraphQL request that goes through fetch is appended, with the server's
// answer (status, X-Complexity, errors), as one JSON line to
// LINEAR_CAPTURE_FILE, so a test can tell which documents were refused and why.
//
// Environment: LINEAR_REDIRECT_URL (required, e.g. http://127.0.0.1:41234),
// LINEAR_CAPTURE_FILE (optional), LINEAR_CAPTURE_CLIENT (a label for the lines).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';

const LINEAR_HOST = 'api.linear.app';
const target = process.env.LINEAR_REDIRECT_URL;
if (!target) throw new Error('linear-host-preload: set LINEAR_REDIRECT_URL to the test server URL');
const targetUrl = new URL(target);
const captureFile = process.env.LINEAR_CAPTURE_FILE;
const clientLabel = process.env.LINEAR_CAPTURE_CLIENT ?? 'unknown';

const isLoopback = (hostname) =>
  hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || hostname.startsWith('127.');

function refuse(where) {
  return new Error(`linear-host-preload: no network in tests; refused a request to ${where}`);
}

/** The test server's URL for a URL on api.linear.app (path and query kept). */
const redirected = (url) => new URL(url.pathname + url.search, targetUrl);

function record(entry) {
  if (!captureFile) return;
  // Synchronous, so a client that exits right after its last request loses nothing.
  fs.appendFileSync(captureFile, `${JSON.stringify({ client: clientLabel, at: Date.now(), ...entry })}\n`);
}

/** The parts of a GraphQL error a report needs: message and classification. */
const summarise = (errors) =>
  Array.isArray(errors)
    ? errors.map((e) => ({
        message: e?.message,
        type: e?.extensions?.type,
        code: e?.extensions?.code,
      }))
    : undefined;

const realFetch = globalThis.fetch;

globalThis.fetch = async function redirectingFetch(input, init) {
  const original = new Request(input, init);
  const url = new URL(original.url);
  if (url.hostname !== LINEAR_HOST) {
    if (isLoopback(url.hostname)) return realFetch(original);
    throw refuse(url.origin);
  }
  // Read the body once: it is both forwarded and recorded.
  const body = original.method === 'GET' || original.method === 'HEAD' ? undefined : await original.text();
  const response = await realFetch(redirected(url), {
    method: original.method,
    headers: original.headers,
    body,
    signal: original.signal,
  });
  if (url.pathname === '/graphql' && body !== undefined) {
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      request = { query: body };
    }
    let answer;
    try {
      answer = await response.clone().json();
    } catch {
      answer = undefined;
    }
    record({
      operationName: request.operationName ?? null,
      query: request.query,
      variables: request.variables ?? {},
      status: response.status,
      complexity: response.headers.get('x-complexity'),
      errors: summarise(answer?.errors),
    });
  }
  return response;
};

/**
 * node:https with api.linear.app as the host goes to the test server instead
 * (over http or https as its URL says); other hosts must be loopback.
 * Arguments follow https.request: (url[, options][, callback]) or (options[, callback]).
 */
function redirectingHttps(original) {
  return function redirectingRequest(...args) {
    let url;
    let options = {};
    let callback;
    if (typeof args[0] === 'string' || args[0] instanceof URL) {
      url = new URL(args[0]);
      if (typeof args[1] === 'function') callback = args[1];
      else [, options = {}, callback] = args;
    } else {
      [options = {}, callback] = args;
    }
    const hostname = url?.hostname ?? options.hostname ?? String(options.host ?? 'localhost').split(':')[0];
    if (hostname !== LINEAR_HOST) {
      if (isLoopback(hostname)) return original(...args);
      throw refuse(`https://${hostname}`);
    }
    const path = url ? url.pathname + url.search : (options.path ?? '/');
    const to = redirected(new URL(path, `https://${LINEAR_HOST}`));
    const forwarded = {
      ...options,
      protocol: to.protocol,
      hostname: to.hostname,
      port: to.port,
      path: to.pathname + to.search,
      headers: { ...options.headers, host: to.host },
    };
    delete forwarded.host;
    // An https agent cannot carry a plain-http request to the test server.
    delete forwarded.agent;
    record({ operationName: null, query: null, via: 'node:https', path });
    const send = to.protocol === 'https:' ? original : http.request;
    return send(forwarded, callback);
  };
}

const realHttpsRequest = https.request;
https.request = redirectingHttps(realHttpsRequest);
https.get = (...args) => {
  const req = https.request(...args);
  req.end();
  return req;
};
// Named ESM imports of node:https see the patched functions too.
syncBuiltinESMExports();
