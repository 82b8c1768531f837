// The loop both background workers (webhook deliveries, mail) run: claim up
// to `concurrency` due jobs from a table (each worker's claim takes leases
// with FOR UPDATE SKIP LOCKED, so any number of processes share the queue),
// run each without waiting for the others, and look again when a job ends,
// when kicked, or after `pollMs` as the safety net. A job that throws is only
// logged: its lease runs out and some worker claims it again (at least once).
import type { AppContext } from './context.js';

export interface ClaimLoopTuning {
  pollMs: number;
  concurrency: number;
  /** How long stop() waits for jobs in flight before giving up on them. */
  stopTimeoutMs: number;
}

export interface ClaimLoopSpec<Job extends { id: string }> {
  /** Names the worker in logs. */
  name: string;
  /** Read on every round, so tuning can change while the loop runs. */
  tuning(): ClaimLoopTuning;
  /** Claims at most `room` due jobs (room may be 0: work that needs no slot can still run here). */
  claim(room: number): Promise<Job[]>;
  run(job: Job): Promise<void>;
}

export interface ClaimLoop {
  /** Look for due jobs now rather than at the next poll. */
  kick(): void;
  /** True once stop() was called: jobs should finish what they hold and claim nothing more. */
  readonly stopping: boolean;
  /** Stops claiming and waits (up to stopTimeoutMs) for the jobs in flight. */
  stop(): Promise<void>;
}

export function startClaimLoop<Job extends { id: string }>(
  ctx: Pick<AppContext, 'log'>,
  spec: ClaimLoopSpec<Job>,
): ClaimLoop {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let kicked = false;
  let wake: (() => void) | null = null;

  const kick = () => {
    kicked = true;
    wake?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  async function loop() {
    while (!stopping) {
      kicked = false;
      const tuning = spec.tuning();
      const room = Math.max(0, tuning.concurrency - inFlight.size);
      let claimed: Job[] = [];
      try {
        claimed = await spec.claim(room);
      } catch (err) {
        if (!stopping) ctx.log.error({ err }, `${spec.name}: claiming failed`);
      }
      for (const job of claimed) {
        const p: Promise<void> = spec
          .run(job)
          .catch((err) => {
            if (!stopping) ctx.log.error({ err, jobId: job.id }, `${spec.name}: job failed`);
          })
          .finally(() => {
            inFlight.delete(p);
            kick();
          });
        inFlight.add(p);
      }
      if (stopping) break;
      // A full claim may have left more due: look again at once.
      if (claimed.length > 0 && claimed.length === room) continue;
      if (!kicked) await sleep(tuning.pollMs);
    }
  }
  const looping = loop();

  return {
    kick,
    get stopping() {
      return stopping;
    },
    async stop() {
      if (!stopping) {
        stopping = true;
        wake?.();
      }
      await looping;
      const timeout = new Promise<void>((r) => setTimeout(r, spec.tuning().stopTimeoutMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
    },
  };
}
