// Admin rules for git hosts: connections (a host, its webhook secret and
// optional API token or GitHub App private key, all sealed), the repositories each connects to a team,
// each team's automation rules, and the delivery log. Defaults of the
// automation live here too (docs/git.md "Automation").
import { randomBytes } from 'node:crypto';
import type { Actor, AppContext } from '../../platform/context.js';
import type {
  GitAutomationEvent,
  GitConnectionRow,
  GitHost,
  GitRepositoryRow,
  StateRow,
} from '../../platform/db/tables.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { UnsafeDestinationError, vetDestination } from '../../platform/net/safe-destination.js';
import { seal } from '../../platform/sealed.js';
import { assertAdmin } from '../users/policy.js';
import { privateKeyProblem } from './github-app.js';
import * as q from './queries.js';

/** The sealing key's purpose (platform/sealed.ts). */
export const SEALING_PURPOSE = 'git-secrets';
export const MIN_SECRET_LENGTH = 16;
export const MAX_REPOSITORIES = 200;
export const AUTOMATION_EVENTS: readonly GitAutomationEvent[] = [
  'draft',
  'start',
  'review',
  'mergeable',
  'merge',
];

export interface RepositoryInput {
  fullName: string;
  teamId: string;
}

export interface ConnectionInput {
  host: GitHost;
  name: string;
  webhookSecret?: string | undefined;
  apiToken?: string | null | undefined;
  /** The host's API root (GitHub Enterprise, self-hosted GitLab, Gitea); null: the public default. */
  apiBaseUrl?: string | null | undefined;
  /** Post back-link comments (default on; they need a token or a GitHub App). */
  backlinks?: boolean | undefined;
  /** GitHub only: back-links authenticate as this App's installation instead of with a token. */
  githubApp?: GitHubAppInput | null | undefined;
  repositories?: RepositoryInput[] | undefined;
}

export interface GitHubAppInput {
  appId: string | number;
  /** The App's private key (PEM); on a change, omitted keeps the one stored. */
  privateKey?: string | undefined;
  /** null or omitted: looked up per repository through the API. */
  installationId?: string | number | null | undefined;
}

export interface ConnectionPatch {
  name?: string | undefined;
  /** Replaces the secret the host signs with; deliveries signed with the old one are refused from then on. */
  webhookSecret?: string | undefined;
  apiToken?: string | null | undefined;
  apiBaseUrl?: string | null | undefined;
  backlinks?: boolean | undefined;
  /** null removes the App. */
  githubApp?: GitHubAppInput | null | undefined;
}

export interface ConnectionView {
  id: string;
  host: GitHost;
  name: string;
  webhookUrl: string;
  hasApiToken: boolean;
  apiBaseUrl: string | null;
  backlinks: boolean;
  /** The App's id and installation id; its private key is never shown. */
  githubApp: { appId: string; installationId: string | null } | null;
  repositories: { fullName: string; teamId: string }[];
  createdAt: string;
}

export const webhookUrl = (ctx: AppContext, host: GitHost) =>
  `${ctx.config.publicUrl.replace(/\/$/, '')}/api/integrations/${host}/webhook`;

function present(ctx: AppContext, c: GitConnectionRow, repos: GitRepositoryRow[]): ConnectionView {
  return {
    id: c.id,
    host: c.host,
    name: c.name,
    webhookUrl: webhookUrl(ctx, c.host),
    hasApiToken: c.api_token !== null,
    apiBaseUrl: c.api_base_url,
    backlinks: c.backlinks,
    githubApp: c.app_id === null ? null : { appId: c.app_id, installationId: c.app_installation_id },
    repositories: repos
      .filter((r) => r.connection_id === c.id)
      .map((r) => ({ fullName: r.full_name, teamId: r.team_id })),
    createdAt: c.created_at.toISOString(),
  };
}

/** An API root, vetted as outgoing webhooks' URLs are (the connect-time check runs again on each call). */
async function checkApiBase(
  ctx: AppContext,
  raw: string | null | undefined,
): Promise<string | null | undefined> {
  if (raw === undefined || raw === null) return raw;
  try {
    const url = await vetDestination(raw.trim(), { allowPrivate: ctx.config.webhookAllowPrivate });
    if (url.search || url.hash || url.username || url.password)
      throw new UnsafeDestinationError('must be a bare URL');
    return url.toString().replace(/\/+$/, '');
  } catch (err) {
    if (err instanceof UnsafeDestinationError) throw invalidField('apiBaseUrl', err.message);
    throw err;
  }
}

type AppColumns = Pick<GitConnectionRow, 'app_id' | 'app_private_key' | 'app_installation_id'>;

/**
 * The App columns an input sets (sealed key), or undefined when it says
 * nothing. A GitHub connection only; a key must be a PEM RSA private key; a
 * connection uses a token or an App, not both.
 */
function checkGitHubApp(
  key: Buffer,
  host: GitHost,
  input: GitHubAppInput | null | undefined,
  current: AppColumns | null,
): AppColumns | undefined {
  if (input === undefined) return undefined;
  if (input === null) return { app_id: null, app_private_key: null, app_installation_id: null };
  if (host !== 'github')
    throw invalidField('githubApp', 'only a GitHub connection authenticates as a GitHub App');
  const appId = String(input.appId);
  if (!/^[1-9][0-9]{0,15}$/.test(appId))
    throw invalidField('githubApp/appId', "must be the App's numeric id");
  const installationId = input.installationId == null ? null : String(input.installationId);
  if (installationId !== null && !/^[1-9][0-9]{0,15}$/.test(installationId)) {
    throw invalidField(
      'githubApp/installationId',
      'must be a numeric installation id, or null to look it up',
    );
  }
  let sealedKey = current?.app_private_key ?? null;
  if (input.privateKey !== undefined) {
    const problem = privateKeyProblem(input.privateKey);
    if (problem) throw invalidField('githubApp/privateKey', problem);
    sealedKey = seal(key, input.privateKey);
  }
  if (sealedKey === null) throw invalidField('githubApp/privateKey', 'is required');
  return { app_id: appId, app_private_key: sealedKey, app_installation_id: installationId };
}

const REPO_NAME = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

async function checkRepositories(
  ctx: AppContext,
  host: GitHost,
  repos: readonly RepositoryInput[],
  exceptConnection: string | null,
): Promise<RepositoryInput[]> {
  const names = repos.map((r) => r.fullName.trim().toLowerCase());
  names.forEach((n, i) => {
    if (!REPO_NAME.test(n) || n.length > 300) {
      throw invalidField(`repositories/${i}/fullName`, 'must be owner/name (GitLab: group/subgroup/project)');
    }
  });
  if (new Set(names).size !== names.length) throw invalidField('repositories', 'names a repository twice');
  const teams = await q.liveTeamIds(
    ctx.db,
    repos.map((r) => r.teamId).filter((t) => isUuid(t)),
  );
  repos.forEach((r, i) => {
    if (!teams.has(r.teamId)) throw invalidField(`repositories/${i}/teamId`, 'no live team with this id');
  });
  const taken = await q.takenRepositories(ctx.db, host, names, exceptConnection);
  if (taken.length > 0) throw conflict(`${taken[0]!.full_name} is already connected`, 'repositories');
  return repos.map((r, i) => ({ fullName: names[i]!, teamId: r.teamId }));
}

/** Connects a host; the answer carries the webhook secret (generated unless given), shown only now. */
export async function createConnection(
  ctx: AppContext,
  actor: Actor,
  input: ConnectionInput,
): Promise<{ connection: ConnectionView; webhookSecret: string }> {
  assertAdmin(actor);
  const name = input.name.trim();
  if (!name) throw invalidField('name', 'must not be blank');
  const secret = input.webhookSecret ?? randomBytes(24).toString('base64url');
  if (secret.length < MIN_SECRET_LENGTH) {
    throw invalidField('webhookSecret', `must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const repos = await checkRepositories(ctx, input.host, input.repositories ?? [], null);
  const apiBase = await checkApiBase(ctx, input.apiBaseUrl);
  const key = ctx.deriveKey(SEALING_PURPOSE);
  const app = checkGitHubApp(key, input.host, input.githubApp, null);
  if (app?.app_id && input.apiToken)
    throw invalidField('githubApp', 'give either apiToken or githubApp, not both');
  const row = await ctx.db.transaction().execute(async (trx) => {
    const c = await q.insertConnection(trx, {
      host: input.host,
      name,
      webhook_secret: seal(key, secret),
      api_token: input.apiToken ? seal(key, input.apiToken) : null,
      api_base_url: apiBase ?? null,
      backlinks: input.backlinks ?? true,
      app_id: app?.app_id ?? null,
      app_private_key: app?.app_private_key ?? null,
      app_installation_id: app?.app_installation_id ?? null,
      created_by: actor.id,
    });
    await q.setRepositories(trx, c, repos);
    return c;
  });
  return { connection: present(ctx, row, await q.repositoriesOf(ctx.db, [row.id])), webhookSecret: secret };
}

export async function listConnections(
  ctx: AppContext,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<{ connections: ConnectionView[]; total: number }> {
  assertAdmin(actor);
  const rows = await q.listConnections(ctx.db, page);
  const repos = await q.repositoriesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { connections: rows.map((r) => present(ctx, r, repos)), total: await q.countConnections(ctx.db) };
}

async function connectionOrNotFound(ctx: AppContext, id: string): Promise<GitConnectionRow> {
  const row = isUuid(id) ? await q.findConnection(ctx.db, id) : undefined;
  if (!row) throw notFound('Git connection');
  return row;
}

/** Replaces the repositories a connection serves, and the team each one's pull requests belong to. */
export async function setConnectionRepositories(
  ctx: AppContext,
  actor: Actor,
  id: string,
  repositories: RepositoryInput[],
): Promise<ConnectionView> {
  assertAdmin(actor);
  const row = await connectionOrNotFound(ctx, id);
  const repos = await checkRepositories(ctx, row.host, repositories, row.id);
  await ctx.db.transaction().execute((trx) => q.setRepositories(trx, row, repos));
  return present(ctx, row, await q.repositoriesOf(ctx.db, [row.id]));
}

/** Changes a connection's name, webhook secret, API token (null removes it), API root or back-link switch. */
export async function updateConnection(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: ConnectionPatch,
): Promise<ConnectionView> {
  assertAdmin(actor);
  const current = await connectionOrNotFound(ctx, id);
  const name = patch.name?.trim();
  if (name === '') throw invalidField('name', 'must not be blank');
  if (patch.webhookSecret !== undefined && patch.webhookSecret.length < MIN_SECRET_LENGTH) {
    throw invalidField('webhookSecret', `must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const apiBase = await checkApiBase(ctx, patch.apiBaseUrl);
  const key = ctx.deriveKey(SEALING_PURPOSE);
  const app = checkGitHubApp(key, current.host, patch.githubApp, current);
  const hasToken = patch.apiToken === undefined ? current.api_token !== null : Boolean(patch.apiToken);
  const hasApp = app === undefined ? current.app_id !== null : app.app_id !== null;
  if (hasToken && hasApp) {
    throw invalidField(
      patch.githubApp ? 'githubApp' : 'apiToken',
      'a connection uses either an API token or a GitHub App: remove the other (null) in the same change',
    );
  }
  const row =
    (await q.updateConnection(ctx.db, current.id, {
      ...(name !== undefined ? { name } : {}),
      ...(patch.webhookSecret !== undefined ? { webhook_secret: seal(key, patch.webhookSecret) } : {}),
      ...(patch.apiToken !== undefined
        ? { api_token: patch.apiToken ? seal(key, patch.apiToken) : null }
        : {}),
      ...(apiBase !== undefined ? { api_base_url: apiBase } : {}),
      ...(patch.backlinks !== undefined ? { backlinks: patch.backlinks } : {}),
      ...(app ?? {}),
    })) ?? current;
  return present(ctx, row, await q.repositoriesOf(ctx.db, [row.id]));
}

/** Disconnects a host: its repositories and queued deliveries go with it. */
export async function deleteConnection(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  assertAdmin(actor);
  await connectionOrNotFound(ctx, id);
  await q.deleteConnection(ctx.db, id);
}

export async function listDeliveries(ctx: AppContext, actor: Actor, page: { limit: number; offset: number }) {
  assertAdmin(actor);
  const rows = await q.listDeliveries(ctx.db, page);
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    deliveryId: r.delivery_id,
    connectionId: r.connection_id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    outcome: r.outcome,
    error: r.last_error,
    receivedAt: r.received_at.toISOString(),
    processedAt: r.processed_at?.toISOString() ?? null,
  }));
}

// --- automation ---

export interface AutomationRule {
  event: GitAutomationEvent;
  /** null: any target branch. */
  targetBranch: string | null;
  /** null: don't move. */
  stateId: string | null;
}

/**
 * The state a team's default moves an issue to on a step, or null (keep):
 * draft and opened -> the first started state (In Progress); review requested
 * -> a started state named "In Review" if there is one; merged -> the first
 * completed state (Done); approved -> keep.
 */
export function defaultTarget(event: GitAutomationEvent, states: readonly StateRow[]): StateRow | null {
  const started = states.filter((s) => s.type === 'started');
  switch (event) {
    case 'draft':
    case 'start':
      return started[0] ?? null;
    case 'review':
      return started.find((s) => s.name.trim().toLowerCase() === 'in review') ?? null;
    case 'mergeable':
      return null;
    case 'merge':
      return states.find((s) => s.type === 'completed') ?? null;
  }
}

/** Where an issue of `teamId` goes on `event` into `targetBranch`: the team's rule, else the default. */
export async function automationTarget(
  ctx: AppContext,
  teamId: string,
  event: GitAutomationEvent,
  targetBranch: string,
): Promise<StateRow | null> {
  const rule = await q.ruleFor(ctx.db, teamId, event, targetBranch);
  const states = await q.liveStatesOf(ctx.db, teamId);
  if (rule) return states.find((s) => s.id === rule.state_id) ?? null;
  return defaultTarget(event, states);
}

async function checkTeam(ctx: AppContext, teamId: string): Promise<void> {
  if (!isUuid(teamId) || !(await q.liveTeamIds(ctx.db, [teamId])).has(teamId)) throw notFound('Team');
}

/** A team's rules as set, and the default of each step no any-branch rule covers. */
export async function getAutomation(ctx: AppContext, actor: Actor, teamId: string) {
  assertAdmin(actor);
  await checkTeam(ctx, teamId);
  const rules = await q.rulesOfTeam(ctx.db, teamId);
  const states = await q.liveStatesOf(ctx.db, teamId);
  return {
    rules: rules.map((r) => ({
      event: r.event,
      targetBranch: r.target_branch === '' ? null : r.target_branch,
      stateId: r.state_id,
    })),
    defaults: AUTOMATION_EVENTS.map((event) => ({
      event,
      stateId: defaultTarget(event, states)?.id ?? null,
    })),
  };
}

/** Replaces a team's rules; each state must be a live state of the team. */
export async function setAutomation(ctx: AppContext, actor: Actor, teamId: string, rules: AutomationRule[]) {
  assertAdmin(actor);
  await checkTeam(ctx, teamId);
  const states = new Set((await q.liveStatesOf(ctx.db, teamId)).map((s) => s.id));
  const seen = new Set<string>();
  const clean = rules.map((r, i) => {
    if (r.stateId !== null && !states.has(r.stateId)) {
      throw invalidField(`rules/${i}/stateId`, 'no live workflow state of this team');
    }
    const targetBranch = r.targetBranch?.trim() ?? '';
    const key = `${r.event}\u0000${targetBranch}`;
    if (seen.has(key)) throw invalidField(`rules/${i}`, 'the same step and branch twice');
    seen.add(key);
    return { event: r.event, targetBranch, stateId: r.stateId };
  });
  await ctx.db.transaction().execute((trx) => q.replaceRules(trx, teamId, clean));
  return getAutomation(ctx, actor, teamId);
}
