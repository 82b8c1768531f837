// The cycle worker: one claim loop per process (platform/claim-loop.ts). Each
// round it claims the teams with automatic cycles that have work (fewer
// upcoming cycles than planned, or an ended cycle not yet completed) and, per
// team under the team row's lock, completes ended cycles (moving their
// unfinished issues to the next cycle when rollover is on) and plans cycles
// up to the team's upcoming count (schedule.ts). The lock and the re-reading
// under it make the work idempotent: however many instances claim the same
// team, each cycle is created once and each issue moved once.
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { moveIssueToCycleAsSystem } from '../issues/service.js';
import { lockTeam } from '../teams/queries.js';
import * as q from './queries.js';
import { nextSpan } from './schedule.js';
import { completeEndedCycle, createPlannedCycle } from './service.js';

export interface CycleWorkerOptions {
  pollMs?: number;
  /** Teams worked on at once. */
  concurrency?: number;
  /** The clock: tests set it. */
  now?: () => Date;
}

export interface CycleWorker {
  kick(): void;
  stop(): Promise<void>;
}

const DEFAULTS = { pollMs: 60_000, concurrency: 2, stopTimeoutMs: 10_000 };

const running = new WeakMap<AppContext, CycleWorker>();

/** Wakes this process's cycle worker, if one runs (after a team's cycle settings change). */
export function kickCycleWorker(ctx: AppContext): void {
  running.get(ctx)?.kick();
}

/** What one pass over a team did. */
export interface CycleSync {
  created: number;
  completed: number;
  moved: number;
}

/**
 * Brings one team's automatic cycles up to date at `now`, in one transaction
 * holding the team row's lock. Does nothing for a team without automatic cycles.
 */
export async function syncTeamCycles(ctx: AppContext, teamId: string, now: Date): Promise<CycleSync> {
  return ctx.db.transaction().execute(async (trx) => {
    const done: CycleSync = { created: 0, completed: 0, moved: 0 };
    const team = await lockTeam(trx, teamId);
    if (!team?.cycles_automatic || !team.cycles_enabled || team.archived_at) return done;
    done.created = await planCycles(ctx, trx, team, now);
    for (const ended of await q.endedOpenCycles(trx, team.id, now)) {
      if (team.cycle_rollover) {
        const next = await q.nextOpenCycle(trx, team.id, ended.ends_at, now);
        if (next) {
          for (const issueId of await q.unfinishedIssueIds(trx, ended.id)) {
            if (await moveIssueToCycleAsSystem(trx, ctx, issueId, next.id)) done.moved++;
          }
        }
      }
      await completeEndedCycle(ctx, trx, ended.id, ended.ends_at);
      done.completed++;
    }
    return done;
  });
}

/** Creates cycles after the team's last until `upcoming_cycle_count` have not started at `now`. */
async function planCycles(ctx: AppContext, trx: Db, team: TeamRow, now: Date): Promise<number> {
  const plan = {
    duration: team.cycle_duration,
    cooldown: team.cycle_cooldown,
    startDay: team.cycle_start_day,
    timezone: team.timezone,
  };
  let { lastEnd, upcoming } = await q.cycleHorizon(trx, team.id, now);
  let created = 0;
  while (upcoming < team.upcoming_cycle_count) {
    const span = nextSpan(plan, lastEnd, now);
    await createPlannedCycle(ctx, trx, team.id, span);
    created++;
    if (span.start > now) upcoming++;
    lastEnd = span.end;
  }
  return created;
}

export function startCycleWorker(ctx: AppContext, options: CycleWorkerOptions = {}): CycleWorker {
  const opts = { ...DEFAULTS, ...options };
  const now = options.now ?? (() => new Date());
  const loop = startClaimLoop<{ id: string }>(ctx, {
    name: 'cycle worker',
    tuning: () => opts,
    claim: async (room) => (await q.teamsDueForCycles(ctx.db, now(), room)).map((id) => ({ id })),
    run: async (job) => {
      await syncTeamCycles(ctx, job.id, now());
    },
  });
  const worker: CycleWorker = {
    kick: () => loop.kick(),
    async stop() {
      await loop.stop();
      if (running.get(ctx) === worker) running.delete(ctx);
    },
  };
  running.set(ctx, worker);
  return worker;
}
