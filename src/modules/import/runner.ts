// The import core: writes what an adapter reads (model.ts) through the
// services, so history, search, counters and visibility stay as for any other
// write. What makes it safe to run again and to resume:
//
// - every written record is kept in import_records by its key in the source;
//   each one is looked up there first, so a re-run creates nothing twice;
// - an issue, its comments, relations, links and the record saying it was
//   imported are one transaction: a failure leaves no half-imported issue;
// - links to an issue not written yet (a parent, a relation's other end) wait
//   in import_pending and are written in the transaction of the issue they
//   wait for;
// - the run (import_runs) keeps the source's page cursor after each written
//   page, so an interrupted run continues where it stopped.
//
// Writes are done as the source's author (the creator of an issue, the author
// of a comment) with the importing admin's reach, so history and comments name
// who did them in the source. Nobody is notified (only the history handler
// runs): an import is not news to anyone. Users are matched by email; someone
// with no account gets a suspended placeholder account (docs/migrate.md).
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { StateType } from '../../platform/db/tables.js';
import { AppError, conflict } from '../../platform/errors.js';
import { createAttachment } from '../attachments/service.js';
import { auditActorOf, recordAudit } from '../audit/record.js';
import { createComment } from '../comments/service.js';
import { createCycle } from '../cycles/service.js';
import { issueHistoryHandler } from '../issues/history.js';
import { createIssue, updateIssue } from '../issues/service.js';
import { createLabel } from '../labels/service.js';
import { createMilestone } from '../milestones/service.js';
import { createProject } from '../projects/service.js';
import { createRelation } from '../relations/service.js';
import { createState } from '../states/service.js';
import { createTeam } from '../teams/service.js';
import { insertAccount } from '../users/service.js';
import { copyFiles, type FileOptions, rewriteLinks, wantedFiles } from './files.js';
import type { ImportIssue, ImportReference, ImportSource, ImportState, SourceTotal } from './model.js';
import * as q from './queries.js';

export interface ImportProgress {
  /** Issues read so far (created, found, refused), earlier attempts of a resumed run included. */
  issues: number;
  /** Pages of the source read so far. */
  pages: number;
  /** How much the source holds, when it says. */
  total: SourceTotal | null;
  counts: Record<string, number>;
}

export interface ImportReport {
  runId: string;
  source: string;
  dryRun: boolean;
  status: 'running' | 'completed' | 'failed';
  /** `<entity>.created`, `<entity>.existing` (matched or imported before), `issue.failed`... */
  counts: Record<string, number>;
  /** Emails the source names that have no account here: placeholders are (or would be) created. */
  missingUsers: string[];
  /** States the source names that the team lacks and whose type is unknown, and the state each maps to. */
  unknownStates: { team: string; name: string; mappedTo: string }[];
  errors: string[];
}

export interface RunOptions {
  dryRun?: boolean;
  /** An existing run to continue (else the source's unfinished run, else a new one). */
  runId?: string;
  onProgress?: (p: ImportProgress) => void;
  /** How files are fetched (tests inject a resolver); private addresses follow WEBHOOK_ALLOW_PRIVATE. */
  files?: Pick<FileOptions, 'resolver'>;
  /**
   * The source's people (their email as the source gives it, the dry run's
   * missing users) → the id of an account here that stands for them. Anyone
   * not in it is matched by email, else gets a placeholder.
   */
  userMap?: Record<string, string> | undefined;
}

/** Errors kept on a run: enough to act on, bounded whatever the source holds. */
const MAX_ERRORS = 100;

const PRIORITY_MAX = 4;

interface StateRef {
  id: string | null;
  name: string;
  type: StateType | null;
}

class Run {
  readonly counts: Record<string, number> = {};
  readonly errors: string[] = [];
  readonly missingUsers = new Set<string>();
  readonly unknownStates: ImportReport['unknownStates'] = [];
  /** A context whose events run only the history handler: nobody is notified of an import. */
  private readonly quiet: AppContext;
  private readonly users = new Map<string, Actor | null>();
  private readonly teams = new Map<string, string | null>();
  private readonly states = new Map<string, StateRef>();
  private readonly labels = new Map<string, string | null>();
  private readonly projects = new Map<string, string | null>();
  private readonly milestones = new Map<string, string | null>();
  private readonly cycles = new Map<string, string | null>();

  constructor(
    private readonly ctx: AppContext,
    private readonly admin: Actor,
    private readonly source: ImportSource,
    readonly runId: string,
    readonly dryRun: boolean,
    private readonly fileOptions: FileOptions,
    /** Lower-cased source email → account id (RunOptions.userMap). */
    private readonly userMap: ReadonlyMap<string, string> = new Map(),
  ) {
    this.quiet = { ...ctx, eventHandlers: ctx.eventHandlers.filter((h) => h === issueHistoryHandler) };
  }

  count(key: string, n = 1) {
    this.counts[key] = (this.counts[key] ?? 0) + n;
  }

  /** Counted as created in a dry run, whose parent (a team, a project) is not there yet: no id. */
  planned(entity: string): null {
    this.count(`${entity}.created`);
    return null;
  }

  error(message: string) {
    if (this.errors.length < MAX_ERRORS) this.errors.push(message);
  }

  private record(trx: Db, entity: string, externalId: string, localId: string) {
    return q.insertRecord(trx, {
      source: this.source.name,
      entity,
      externalId,
      localId,
      runId: this.runId,
    });
  }

  /** A reference entity: its record, else a match by name, else created (or counted, in a dry run). */
  private async resolve(
    entity: string,
    key: string,
    match: () => Promise<string | undefined>,
    create: () => Promise<string>,
  ): Promise<string | null> {
    const known = await q.findRecord(this.ctx.db, this.source.name, entity, key);
    if (known) {
      this.count(`${entity}.existing`);
      return known;
    }
    const matched = await match();
    if (!matched && this.dryRun) {
      this.count(`${entity}.created`);
      return null;
    }
    const id = matched ?? (await create());
    this.count(matched ? `${entity}.existing` : `${entity}.created`);
    if (!this.dryRun) await this.record(this.ctx.db, entity, key, id);
    return id;
  }

  // ---- users

  /** The actor writing as `email`'s user; the importing admin when the source names nobody. */
  async actorFor(email: string | null | undefined, name?: string | null): Promise<Actor> {
    return (email ? await this.user(email, name) : null) ?? this.admin;
  }

  /** The user of `email`, a placeholder made for it, or null in a dry run when there is none yet. */
  async user(rawEmail: string, name?: string | null): Promise<Actor | null> {
    const email = rawEmail.trim().toLowerCase();
    if (this.users.has(email)) return this.users.get(email) ?? null;
    // The admin's map first; an account deleted since falls back to the email.
    const mappedId = this.userMap.get(email);
    const mapped = mappedId ? (await q.liveUsersByIds(this.ctx.db, [mappedId]))[0] : undefined;
    if (mapped) this.count('user.mapped');
    let row = mapped ?? (await q.liveUserByEmail(this.ctx.db, email));
    if (!row) {
      this.missingUsers.add(email);
      if (this.dryRun) {
        this.users.set(email, null);
        return null;
      }
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
      row = await this.ctx.db.transaction().execute(async (trx) => {
        const user = await insertAccount(
          trx,
          { name: name?.trim() || email.split('@')[0] || email, email, role: 'member', passwordHash },
          auditActorOf(this.admin),
        );
        await q.suspendUser(trx, user.id);
        await this.record(trx, 'user', email, user.id);
        return user;
      });
      this.count('user.created');
    }
    // The author writes with the importer's reach: an admin's, which the run was started by.
    const actor: Actor = { id: row.id, role: 'admin', name: row.name, email: row.email, via: 'apiKey' };
    this.users.set(email, actor);
    return actor;
  }

  // ---- reference data

  async reference(ref: ImportReference) {
    for (const u of ref.users) await this.user(u.email, u.name);
    for (const t of ref.teams) {
      const id = await this.resolve(
        'team',
        t.key,
        async () => (await q.teamByKey(this.ctx.db, t.teamKey))?.id,
        async () => (await createTeam(this.ctx, this.admin, { key: t.teamKey, name: t.name })).id,
      );
      this.teams.set(t.key, id);
    }
    for (const s of ref.states) await this.state(s);
    for (const l of ref.labels) {
      const teamId = l.teamRef === null ? null : this.teams.get(l.teamRef);
      if (teamId === undefined) continue;
      const id =
        l.teamRef !== null && teamId === null
          ? this.planned('label')
          : await this.resolve(
              'label',
              l.key,
              async () => (await q.labelByName(this.ctx.db, teamId, l.name))?.id,
              async () =>
                (
                  await createLabel(this.ctx, this.admin, {
                    name: l.name,
                    teamId,
                    ...(l.color ? { color: l.color } : {}),
                  })
                ).id,
            );
      this.labels.set(l.key, id);
    }
    for (const p of ref.projects) {
      const teamIds = p.teamRefs.map((r) => this.teams.get(r)).filter((id): id is string => !!id);
      const id = await this.resolve(
        'project',
        p.key,
        async () => (await q.projectByName(this.ctx.db, p.name))?.id,
        async () =>
          (
            await createProject(this.ctx, this.admin, {
              name: p.name,
              ...(p.description ? { description: p.description } : {}),
              ...(teamIds.length ? { teamIds } : {}),
            })
          ).id,
      );
      this.projects.set(p.key, id);
    }
    for (const m of ref.milestones) {
      const projectId = this.projects.get(m.projectRef);
      if (projectId === undefined) continue;
      const id = projectId
        ? await this.resolve(
            'milestone',
            m.key,
            async () => (await q.milestoneByName(this.ctx.db, projectId, m.name))?.id,
            async () =>
              (
                await createMilestone(this.ctx, this.admin, {
                  projectId,
                  name: m.name,
                  targetDate: m.targetDate ?? null,
                })
              ).id,
          )
        : this.planned('milestone');
      this.milestones.set(m.key, id);
    }
    for (const c of ref.cycles) {
      const teamId = this.teams.get(c.teamRef);
      if (teamId === undefined) continue;
      const id = teamId
        ? await this.resolve(
            'cycle',
            c.key,
            async () => (await q.cycleByDates(this.ctx.db, teamId, c.startsAt, c.endsAt))?.id,
            async () =>
              (
                await createCycle(this.ctx, this.admin, {
                  teamId,
                  startsAt: c.startsAt,
                  endsAt: c.endsAt,
                  name: c.name ?? null,
                })
              ).id,
          )
        : this.planned('cycle');
      this.cycles.set(c.key, id);
    }
  }

  private async state(s: ImportState) {
    const teamId = this.teams.get(s.teamRef);
    if (teamId === undefined) return;
    const live = teamId ? await q.liveStatesOfTeam(this.ctx.db, teamId) : [];
    const same = live.find((x) => x.name.toLowerCase() === s.name.toLowerCase());
    const known = await q.findRecord(this.ctx.db, this.source.name, 'state', s.key);
    if (known || same) {
      this.count('state.existing');
      const id = known ?? same!.id;
      if (!known && !this.dryRun) await this.record(this.ctx.db, 'state', s.key, id);
      this.states.set(s.key, { id, name: same?.name ?? s.name, type: (same?.type as StateType) ?? null });
      return;
    }
    if (s.type) {
      this.count('state.created');
      const id =
        teamId && !this.dryRun
          ? (
              await createState(this.ctx, this.admin, {
                teamId,
                name: s.name,
                // The schema's union built by map() types as never; checkInput checks the value.
                type: s.type as never,
                color: s.color ?? '#95a2b3',
              })
            ).id
          : null;
      if (id) await this.record(this.ctx.db, 'state', s.key, id);
      this.states.set(s.key, { id, name: s.name, type: s.type });
      return;
    }
    // Neither known nor typed: the team's default (its first backlog state, else its first).
    const fallback = live.find((x) => x.type === 'backlog') ?? live[0];
    this.unknownStates.push({
      team: s.teamRef,
      name: s.name,
      mappedTo: fallback?.name ?? "the new team's default state",
    });
    this.states.set(s.key, { id: fallback?.id ?? null, name: fallback?.name ?? s.name, type: null });
  }

  // ---- issues

  /** One issue with everything hanging off it, in one transaction; false when it was imported before. */
  async issue(read: ImportIssue): Promise<boolean> {
    const src = this.source.name;
    if (await q.findRecord(this.ctx.db, src, 'issue', read.key)) {
      this.count('issue.existing');
      return false;
    }
    const teamId = this.teams.get(read.teamRef);
    if (teamId === undefined) throw new AppError(400, 'VALIDATION_FAILED', `unknown team ${read.teamRef}`);
    // Who it names must exist first (placeholders are their own transactions).
    const creator = await this.actorFor(read.creatorEmail);
    const assignee = read.assigneeEmail ? await this.user(read.assigneeEmail) : null;
    const authors = new Map<string, Actor>();
    for (const c of read.comments ?? []) {
      if (c.authorEmail) authors.set(c.key, await this.actorFor(c.authorEmail, c.authorName));
    }
    if (this.dryRun) {
      this.count('issue.created');
      this.count('comment.created', read.comments?.length ?? 0);
      // Files that would be copied (whether each can be fetched shows only when it is).
      this.count('file.created', wantedFiles(this.source, read).size);
      return true;
    }
    // Files are fetched before the issue's transaction (which a download must not hold open); each
    // one is recorded as it is stored, so a re-run after a failure reuses what was copied.
    const files = await copyFiles(this.ctx, this.source, read, creator, this.fileOptions, {
      runId: this.runId,
      count: (key) => this.count(key),
      error: (message) => this.error(message),
    });
    const issue = rewriteLinks(read, files);
    const state = issue.stateRef ? this.states.get(issue.stateRef) : undefined;
    const labelIds = (issue.labelRefs ?? [])
      .map((r) => this.labels.get(r))
      .filter((id): id is string => !!id);
    const ref = <T>(m: Map<string, T | null>, key: string | null | undefined) =>
      key ? (m.get(key) ?? undefined) : undefined;
    const projectId = ref(this.projects, issue.projectRef);
    const milestoneId = projectId ? ref(this.milestones, issue.milestoneRef) : undefined;
    const cycleId = ref(this.cycles, issue.cycleRef);

    await this.ctx.db.transaction().execute(async (trx) => {
      const parentId = issue.parentRef ? await q.findRecord(trx, src, 'issue', issue.parentRef) : undefined;
      const created = await createIssue(
        this.quiet,
        creator,
        {
          teamId: teamId!,
          title: issue.title,
          description: withOrigin(issue, this.source.label),
          ...(issue.priority != null ? { priority: clampPriority(issue.priority) } : {}),
          ...(issue.estimate != null ? { estimate: issue.estimate } : {}),
          ...(issue.dueDate ? { dueDate: issue.dueDate.slice(0, 10) } : {}),
          ...(state?.id ? { stateId: state.id } : {}),
          ...(assignee ? { assigneeId: assignee.id } : {}),
          ...(labelIds.length ? { labelIds } : {}),
          ...(projectId ? { projectId } : {}),
          ...(milestoneId ? { projectMilestoneId: milestoneId } : {}),
          ...(cycleId ? { cycleId } : {}),
          ...(parentId ? { parentId } : {}),
        },
        trx,
        { keepState: true },
      );
      const id = created.id;
      if (issue.parentRef && !parentId)
        await q.insertPending(trx, { source: src, waitingFor: issue.parentRef, kind: 'parent', issueId: id });

      // What waited for this issue: children, and relations whose other end it is.
      for (const p of await q.takePending(trx, src, issue.key)) {
        if (p.kind === 'parent') {
          await updateIssue(this.quiet, this.admin, p.issue_id, { parentId: id }, trx);
        } else {
          const d = p.data as { key: string; type: string; outgoing: boolean };
          await this.relation(trx, d.key, d.type, d.outgoing ? p.issue_id : id, d.outgoing ? id : p.issue_id);
        }
      }

      const commentIds = new Map<string, string>();
      const comments = [...(issue.comments ?? [])].sort((a, b) =>
        (a.createdAt ?? '').localeCompare(b.createdAt ?? ''),
      );
      for (const c of comments) {
        const body = c.body.trim() === '' ? '(empty comment)' : c.body;
        const parent = c.parentRef ? commentIds.get(c.parentRef) : undefined;
        const row = await createComment(
          this.quiet,
          authors.get(c.key) ?? this.admin,
          { issueId: id, body, ...(parent ? { parentId: parent } : {}) },
          trx,
        );
        await q.setCommentDates(trx, row.id, c);
        await this.record(trx, 'comment', c.key, row.id);
        commentIds.set(c.key, row.id);
        this.count('comment.created');
      }

      for (const r of issue.relations ?? []) {
        if (await q.findRecord(trx, src, 'relation', r.key)) continue;
        const other = await q.findRecord(trx, src, 'issue', r.relatedRef);
        if (other) await this.relation(trx, r.key, r.type, id, other);
        else
          await q.insertPending(trx, {
            source: src,
            waitingFor: r.relatedRef,
            kind: 'relation',
            issueId: id,
            data: { key: r.key, type: r.type, outgoing: true },
          });
      }

      for (const a of issue.attachments ?? []) {
        // A copied file's attachment is written by its uploader, the one who may make it carry the file.
        const row = await createAttachment(
          this.quiet,
          creator,
          { issueId: id, title: a.title, subtitle: a.subtitle ?? null, url: a.url },
          trx,
        );
        await this.record(trx, 'attachment', a.key, row.id);
        this.count('attachment.created');
      }
      // Files linked from the text are the issue's too: an attachment carries each.
      for (const f of files.values()) {
        if (f.attached) continue;
        await createAttachment(
          this.quiet,
          creator,
          { issueId: id, title: f.filename, subtitle: 'Imported file', url: f.ourUrl },
          trx,
        );
      }
      if (issue.url) {
        await createAttachment(
          this.quiet,
          this.admin,
          {
            issueId: id,
            title: `${this.source.label} ${issue.identifier}`,
            subtitle: 'Imported',
            url: issue.url,
          },
          trx,
        );
      }

      // Last, so nothing written above stamps "now" over the source's dates.
      const { type } = await q.stateTypeOf(trx, created.state_id);
      await q.setIssueDates(trx, id, issue, type);
      await this.record(trx, 'issue', issue.key, id);
    });
    this.count('issue.created');
    return true;
  }

  /** `from` relates to `to` (the relation's source and target), unless a duplicate of one already there. */
  private async relation(trx: Db, key: string, type: string, from: string, to: string) {
    if (await q.findRecord(trx, this.source.name, 'relation', key)) return;
    const row = await createRelation(
      this.quiet,
      this.admin,
      { issueId: from, relatedIssueId: to, type },
      trx,
    );
    await this.record(trx, 'relation', key, row.id);
    this.count('relation.created');
  }
}

const clampPriority = (p: number) => Math.min(PRIORITY_MAX, Math.max(0, Math.round(p)));

/**
 * The description with a last line naming the issue's key in its source: the
 * key is then found by search (REST `q`, GraphQL `searchIssues`) and shown on
 * the issue, whatever the source (a CSV row has no address to link to).
 */
export function withOrigin(issue: Pick<ImportIssue, 'description' | 'identifier' | 'url'>, label: string) {
  const key = issue.url ? `[${issue.identifier}](${issue.url})` : issue.identifier;
  // Search reads "ENG-12" in the text as the word "eng" and the number "-12" and a
  // search for "ENG-12" asks for both (platform/list/search.ts): the key as written is found.
  const line = `*Imported from ${label}: ${key}*`;
  const text = issue.description?.trimEnd() ?? '';
  return text ? `${text}\n\n${line}` : line;
}

/** A run opened for a source: a new one, or an unfinished one continued from its cursor. */
export interface OpenedRun {
  id: string;
  cursor: string | null;
  resumed: boolean;
  /** What the run read before it stopped (zero for a new run): a resumed run goes on counting. */
  read: { issues: number; pages: number };
}

/**
 * Runs going on in this process. A run of the same source is refused while
 * one goes on; a run another process may be writing (still `running`, and
 * progress recorded within STALE_AFTER_MS) is refused too.
 */
const active = new Set<string>();
export const STALE_AFTER_MS = 10 * 60_000;

/**
 * Opens the run of `source`: a dry run is always a new run; a writing run
 * continues the source's unfinished one (failed, or left `running` by a
 * process that stopped), else starts one. Audited (`import.started`) in the
 * same transaction. 409 while a run of the source goes on.
 */
export async function openRun(
  ctx: AppContext,
  admin: Actor,
  source: ImportSource,
  opts: { dryRun?: boolean; runId?: string } = {},
): Promise<OpenedRun> {
  const dryRun = opts.dryRun ?? false;
  return ctx.db.transaction().execute(async (trx) => {
    await q.lockSource(trx, source.name);
    const existing = opts.runId
      ? await q.findRun(trx, opts.runId)
      : dryRun
        ? undefined
        : await q.findUnfinishedRun(trx, source.name);
    if (existing) {
      const recent = Date.now() - existing.updated_at.getTime() < STALE_AFTER_MS;
      if (active.has(existing.id) || (existing.status === 'running' && recent))
        throw conflict(`an import of this source is running (run ${existing.id})`);
      await q.updateRun(trx, existing.id, { status: 'running' });
    }
    const id =
      existing?.id ??
      (await q.insertRun(trx, { source: source.name, kind: source.kind, dryRun, createdBy: admin.id })).id;
    await recordAudit(trx, {
      type: 'import.started',
      actor: auditActorOf(admin),
      entity: { type: 'importRun', id, label: source.name },
      metadata: { kind: source.kind, source: source.name, dryRun, resumed: !!existing },
    });
    active.add(id);
    const goesOn = !dryRun && !!existing?.cursor;
    return {
      id,
      cursor: goesOn ? existing.cursor : null,
      resumed: !!existing,
      read: goesOn ? { issues: existing.issues_read, pages: existing.pages_read } : { issues: 0, pages: 0 },
    };
  });
}

/**
 * Runs an import of `source` as `admin`: opens its run (openRun), reads its
 * reference data, then its issues page by page, recording progress on the
 * run. A run that stops (the source fails, the process ends) is continued by
 * the next run of the same source. Returns the report; a source failure
 * marks the run failed and rethrows.
 */
export async function runImport(
  ctx: AppContext,
  admin: Actor,
  source: ImportSource,
  opts: RunOptions = {},
): Promise<ImportReport> {
  const opened = await openRun(ctx, admin, source, {
    dryRun: opts.dryRun ?? false,
    ...(opts.runId ? { runId: opts.runId } : {}),
  });
  return continueRun(ctx, admin, source, opened, opts);
}

/** The body of a run openRun opened (the REST door opens it in the request and runs this after the answer). */
export async function continueRun(
  ctx: AppContext,
  admin: Actor,
  source: ImportSource,
  opened: OpenedRun,
  opts: RunOptions & { signal?: AbortSignal } = {},
): Promise<ImportReport> {
  const dryRun = opts.dryRun ?? false;
  const runId = opened.id;
  const userMap = new Map(Object.entries(opts.userMap ?? {}).map(([k, v]) => [k.trim().toLowerCase(), v]));
  const run = new Run(
    ctx,
    admin,
    source,
    runId,
    dryRun,
    { allowPrivate: ctx.config.webhookAllowPrivate, resolver: opts.files?.resolver, signal: opts.signal },
    userMap,
  );
  const report = (status: ImportReport['status']): ImportReport => ({
    runId,
    source: source.name,
    dryRun,
    status,
    counts: run.counts,
    missingUsers: [...run.missingUsers].sort(),
    unknownStates: run.unknownStates,
    errors: run.errors,
  });
  const finish = async (status: 'completed' | 'failed') => {
    const done = report(status);
    await ctx.db.transaction().execute(async (trx) => {
      await q.updateRun(trx, runId, {
        status,
        counts: run.counts,
        errors: run.errors,
        report: done,
        ...(status === 'completed' ? { finished: true, ...(dryRun ? {} : { cursor: null }) } : {}),
      });
      await recordAudit(trx, {
        type: status === 'completed' ? 'import.completed' : 'import.failed',
        actor: auditActorOf(admin),
        entity: { type: 'importRun', id: runId, label: source.name },
        metadata: { kind: source.kind, source: source.name, dryRun, counts: run.counts },
      });
    });
    return done;
  };
  let cursor = opened.cursor;
  const read = { ...opened.read };
  let total: SourceTotal | null = null;
  try {
    await run.reference(await source.reference());
    // A new attempt starts from its cursor: what an earlier one counted beyond it is read again.
    await q.updateRun(ctx.db, runId, { read, total });
    for await (const page of source.issues(cursor)) {
      // The size is shown as soon as the source tells it, before the page is written.
      if (page.total && (page.total.count !== total?.count || page.total.unit !== total.unit)) {
        total = page.total;
        await q.updateRun(ctx.db, runId, { total });
      }
      for (const message of page.refused ?? []) {
        run.count('issue.failed');
        run.error(message);
      }
      for (const issue of page.issues) {
        opts.signal?.throwIfAborted();
        try {
          await run.issue(issue);
        } catch (err) {
          // A refused record (bad data) is reported and skipped; a re-run tries it again.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          run.count('issue.failed');
          run.error(`${issue.identifier}: ${err.message}${detailsOf(err)}`);
        }
      }
      cursor = page.next;
      read.issues += page.issues.length + (page.refused?.length ?? 0);
      read.pages++;
      await q.updateRun(ctx.db, runId, {
        counts: run.counts,
        errors: run.errors,
        read,
        ...(dryRun ? {} : { cursor }),
      });
      opts.onProgress?.({ ...read, total, counts: run.counts });
    }
  } catch (err) {
    run.error(`stopped: ${(err as Error).message}`);
    await finish('failed').finally(() => active.delete(runId));
    throw err;
  }
  return finish('completed').finally(() => active.delete(runId));
}

function detailsOf(err: AppError): string {
  return err.details ? ` ${JSON.stringify(err.details)}` : '';
}
