// Running third-party clients of the Linear API, unmodified, against a test
// server: each runs as a child process with linear-host-preload.mjs, which
// sends its api.linear.app requests to our server and records every GraphQL
// document with the answer it got. Tests then read that record: a refused
// document fails the step that sent it, and the documents are kept as data for
// calibrating query cost (test/fixtures/client-documents/).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { GraphQLSchema } from 'graphql';

export const PRELOAD = path.resolve('test/support/linear-host-preload.mjs');
const FIXTURES = path.resolve('test/fixtures/client-documents');
const CACHE = path.resolve('.test-cache/client-documents');

/** One GraphQL request a client sent, as linear-host-preload.mjs recorded it. */
export interface Sent {
  client: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  status: number;
  /** X-Complexity: the cost charged (10000 for a cost refusal, 0 when invalid). */
  complexity: string | null;
  errors?: { message: string; type?: string; code?: string }[];
  /** Which test step sent it (added by Capture). */
  step?: string;
}

/**
 * The record of one client's requests: a JSON-lines file the preload appends
 * to, read back per step. Steps run one after another, so whatever was added
 * since the previous step belongs to the current one.
 */
export class Capture {
  readonly file: string;
  readonly dir: string;
  private seen = 0;
  readonly all: Sent[] = [];

  constructor(readonly client: string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `trackway-${client}-`));
    this.file = path.join(this.dir, 'sent.jsonl');
    fs.writeFileSync(this.file, '');
  }

  /** Environment for a child process running the client under the preload. */
  env(base: string): Record<string, string> {
    return { LINEAR_REDIRECT_URL: base, LINEAR_CAPTURE_FILE: this.file, LINEAR_CAPTURE_CLIENT: this.client };
  }

  /** Requests recorded since the last call, labelled with the step that sent them. */
  take(step: string): Sent[] {
    const lines = fs.readFileSync(this.file, 'utf8').split('\n').filter(Boolean);
    const fresh = lines.slice(this.seen).map((l) => ({ ...(JSON.parse(l) as Sent), step }));
    this.seen = lines.length;
    this.all.push(...fresh);
    return fresh;
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The operation's name: @linear/sdk sends no operationName, so it is read from
 * the document (`query issue(...)`), as `query` or `mutation` when unnamed.
 */
export function nameOf(s: Sent): string {
  if (s.operationName) return s.operationName;
  const m = /\b(query|mutation|subscription)\s*([_A-Za-z][_0-9A-Za-z]*)?/.exec(s.query ?? '');
  return m ? (m[2] ?? m[1]!) : '(anonymous)';
}

/** A one-line account of why the server refused a request. */
export function refusalOf(s: Sent): string {
  const errors = (s.errors ?? []).map((e) => `${e.message} [${e.type ?? e.code ?? '?'}]`).join('; ');
  return `${nameOf(s)}: HTTP ${s.status}, X-Complexity ${s.complexity}: ${errors}`;
}

/**
 * Fails unless every request of a step was answered without errors, and at
 * least one request was sent (a step that sends nothing has not been tested).
 */
export function assertAccepted(sent: Sent[], step: string): void {
  assert.ok(sent.length > 0, `${step}: the client sent no GraphQL request`);
  const refused = sent.filter((s) => s.errors?.length);
  assert.deepEqual(refused.map(refusalOf), [], `${step}: the server refused documents`);
}

/**
 * A reason to mark a step todo when the schema does not hold what it needs,
 * else false. Computed from the live schema, so a step turns into a strict
 * test as soon as the feature lands. `needs` are `Type.field` names (or type
 * names). The schema has every type and field of the third-party schema; what
 * this service does not hold says so in its description, which is what is read.
 */
export function todoUnless(schema: GraphQLSchema, feature: string, needs: string[]): string | false {
  const unheld = (description: string | null | undefined) =>
    /not held by this service/i.test(description ?? '');
  const missing = needs.filter((n) => {
    const [typeName, field] = n.split('.');
    const type = schema.getType(typeName!);
    if (!type || unheld(type.description)) return true;
    if (!field) return false;
    const fields =
      'getFields' in type ? (type.getFields() as Record<string, { description?: string | null }>) : {};
    return !fields[field] || unheld(fields[field].description);
  });
  return missing.length ? `needs ${feature} (not held: ${missing.join(', ')})` : false;
}

/** An MCP client connected over stdio to a server run under the preload. */
export async function startMcp(
  capture: Capture,
  base: string,
  script: string,
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', PRELOAD, path.resolve(script)],
    // The capture's own directory as the working directory: one of the servers
    // loads a `.env` from it, and none should see the project's files.
    cwd: capture.dir,
    env: { ...capture.env(base), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const client = new Client({ name: 'trackway-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The text a tool answered; throws with the text when the tool reports an error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const res = (await client.callTool({ name, arguments: args })) as {
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  const text = (res.content ?? []).map((c) => c.text ?? '').join('\n');
  if (res.isError) throw new Error(`tool ${name} answered an error: ${text}`);
  return text;
}

/**
 * One step of a scenario: calls a tool, then checks the documents it caused
 * were all accepted (reported first, as the more telling failure), then the
 * tool's own error if any. Answers the tool's text, parsed when it is JSON.
 */
export async function toolStep(
  mcp: { client: Client },
  capture: Capture,
  step: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<any> {
  let text: string | undefined;
  let failure: unknown;
  try {
    text = await callTool(mcp.client, tool, args);
  } catch (err) {
    failure = err;
  }
  assertAccepted(capture.take(step), step);
  if (failure) throw failure;
  try {
    return JSON.parse(text!);
  } catch {
    return text;
  }
}

/**
 * Runs a command line client under the preload; resolves with its output,
 * whatever its exit code. `answers` are typed in order, each once its `prompt`
 * appears on standard output (questions a client asks even in batch mode).
 */
export function runCli(
  capture: Capture,
  base: string,
  script: string,
  args: string[],
  opts: {
    env: Record<string, string>;
    cwd: string;
    answers?: { prompt: string; text: string }[];
    timeoutMs?: number;
  },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, path.resolve(script), ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: opts.cwd, ...capture.env(base), ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const answers = [...(opts.answers ?? [])];
    // Where the output not yet matched by a prompt starts: a prompt is answered once.
    let from = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      while (answers.length && stdout.indexOf(answers[0]!.prompt, from) !== -1) {
        from = stdout.indexOf(answers[0]!.prompt, from) + answers[0]!.prompt.length;
        child.stdin.write(answers.shift()!.text);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // Generous: a busy machine slows a cold start of these clients several times over.
    const timer = setTimeout(() => child.kill(), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Variables as JSON with the ids and timestamps of one run replaced by
 * placeholders, so that the kept documents change only when a client does.
 */
const stableJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');

/**
 * Keeps what a client sent: one .graphql file per client, each distinct
 * document once, headed by the steps that sent it and the variables of each
 * sending. Written under .test-cache on every run, and over the committed
 * fixtures when UPDATE_CLIENT_DOCUMENTS=1. A report of the server's answers
 * (accepted with its cost, or refused with the errors) goes beside the cache copy.
 */
export function keepDocuments(client: string, sent: Sent[]): void {
  const byText = new Map<string, Sent[]>();
  for (const s of sent) if (s.query) byText.set(s.query, [...(byText.get(s.query) ?? []), s]);
  const blocks = [...byText.entries()].map(([query, sends]) => {
    const steps = [...new Set(sends.map((s) => s.step))].join(', ');
    const vars = [...new Set(sends.map((s) => stableJson(s.variables)))];
    const head = [`# steps: ${steps}`, ...vars.map((v) => `# variables: ${v}`)];
    return `${head.join('\n')}\n${query.trim()}\n`;
  });
  const text = `# Documents ${client} sent to the test server (test/real-clients-*.test.ts).\n\n${blocks.join('\n')}`;
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(path.join(CACHE, `${client}.graphql`), text);
  if (process.env['UPDATE_CLIENT_DOCUMENTS'] === '1') {
    fs.mkdirSync(FIXTURES, { recursive: true });
    fs.writeFileSync(path.join(FIXTURES, `${client}.graphql`), text);
  }
  // A document can be accepted with some variables and refused with others.
  const report = [...byText.values()].flatMap((sends) => {
    const answers = new Map<string, string[]>();
    for (const s of sends) {
      const answer = s.errors?.length ? `refused: ${refusalOf(s)}` : `accepted, cost ${s.complexity}`;
      answers.set(answer, [...(answers.get(answer) ?? []), s.step!]);
    }
    return [...answers.entries()].map(
      ([answer, steps]) => `- ${nameOf(sends[0]!)} [${[...new Set(steps)].join(', ')}]: ${answer}`,
    );
  });
  fs.writeFileSync(path.join(CACHE, `${client}.report.md`), `# ${client}\n\n${report.join('\n')}\n`);
}
