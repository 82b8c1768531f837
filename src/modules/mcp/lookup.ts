// Names a model writes ("In Review", "ana@example.com", "me", "Bug") turned
// into the ids the services take, through the same list reads REST answers
// (so a name the caller may not see is no name at all). Each list is read at
// most once per tool call. A name that matches nothing is a ToolError that
// lists what would have matched, so the model can try again.
import type { Actor, AppContext } from '../../platform/context.js';
import { listCyclesJson } from '../cycles/service.js';
import { listLabelsJson } from '../labels/service.js';
import { listMilestonesJson } from '../milestones/service.js';
import { listProjectsJson } from '../projects/service.js';
import { listStatesJson } from '../states/service.js';
import { listTeamsJson } from '../teams/service.js';
import { listUsersJson } from '../users/service.js';

/** A refusal the model can act on: sent back as a tool result with isError. */
export class ToolError extends Error {
  override name = 'ToolError';
}

type Rec = Record<string, unknown>;

const norm = (s: string) => s.trim().toLowerCase();
/** At most `n` names, for an error message. */
const some = (names: string[], n = 30) =>
  names.length > n ? `${names.slice(0, n).join(', ')}, ... (${names.length} in all)` : names.join(', ');

export class Lookup {
  private cache = new Map<string, Promise<Rec[]>>();
  constructor(
    readonly ctx: AppContext,
    readonly actor: Actor,
  ) {}

  private list(key: string, read: () => Promise<string>, member: string): Promise<Rec[]> {
    let hit = this.cache.get(key);
    if (!hit) {
      hit = read().then((text) => (JSON.parse(text) as Record<string, Rec[]>)[member] ?? []);
      this.cache.set(key, hit);
    }
    return hit;
  }

  teams = () => this.list('teams', () => listTeamsJson(this.ctx, this.actor), 'teams');
  states = (teamId?: string) =>
    this.list(`states:${teamId ?? ''}`, () => listStatesJson(this.ctx, this.actor, teamId), 'workflowStates');
  labels = () => this.list('labels', () => listLabelsJson(this.ctx, this.actor), 'labels');
  users = () =>
    this.list('users', () => listUsersJson(this.ctx, this.actor, { limit: 250, offset: 0 }), 'users');
  projects = () =>
    this.list(
      'projects',
      () => listProjectsJson(this.ctx, this.actor, { limit: 250, offset: 0, includeArchived: false }),
      'projects',
    );
  cycles = (teamId: string) =>
    this.list(
      `cycles:${teamId}`,
      () => listCyclesJson(this.ctx, this.actor, { teamId, limit: 250, offset: 0 }),
      'cycles',
    );
  milestones = (projectId: string) =>
    this.list(
      `milestones:${projectId}`,
      () => listMilestonesJson(this.ctx, this.actor, projectId),
      'milestones',
    );

  /** Label id → name, for answers. */
  async labelNames(): Promise<Map<string, string>> {
    return new Map((await this.labels()).map((l) => [String(l['id']), String(l['name'])]));
  }

  /** A team by key, name or id. */
  async team(ref: string): Promise<Rec> {
    const teams = await this.teams();
    const found = teams.find(
      (t) => t['id'] === ref || norm(String(t['key'])) === norm(ref) || norm(String(t['name'])) === norm(ref),
    );
    if (!found) {
      throw new ToolError(
        `No team '${ref}' that you can see; teams are: ${some(teams.map((t) => `${t['key']} (${t['name']})`))}.`,
      );
    }
    return found;
  }

  /** A workflow state of the team by name (any case) or id. */
  async state(teamId: string, teamKey: string, ref: string): Promise<string> {
    const states = await this.states(teamId);
    const found = states.find((s) => s['id'] === ref || norm(String(s['name'])) === norm(ref));
    if (!found) {
      throw new ToolError(
        `No state named '${ref}' in ${teamKey}; states are: ${some(states.map((s) => String(s['name'])))}.`,
      );
    }
    return String(found['id']);
  }

  /** A person by "me", email, name, display name or id. */
  async user(ref: string): Promise<string> {
    if (norm(ref) === 'me') return this.actor.id;
    const users = await this.users();
    const r = norm(ref);
    const matches = users.filter(
      (u) =>
        u['id'] === ref ||
        norm(String(u['email'])) === r ||
        norm(String(u['name'])) === r ||
        norm(String(u['displayName'])) === r,
    );
    if (matches.length === 1) return String(matches[0]!['id']);
    if (matches.length > 1) {
      throw new ToolError(
        `'${ref}' names ${matches.length} people (${some(matches.map((u) => String(u['email'])))}); give the email.`,
      );
    }
    throw new ToolError(
      `No person '${ref}' that you can see; give an email, a name or "me". People: ${some(
        users.map((u) => `${u['name']} <${u['email']}>`),
        15,
      )}.`,
    );
  }

  /** Labels by name (any case) or id; a team's labels and the workspace's. */
  async labelIds(teamId: string | null, refs: readonly string[]): Promise<string[]> {
    const labels = (await this.labels()).filter(
      (l) => !l['isGroup'] && (l['teamId'] === null || teamId === null || l['teamId'] === teamId),
    );
    return refs.map((ref) => {
      const matches = labels.filter((l) => l['id'] === ref || norm(String(l['name'])) === norm(ref));
      if (matches.length === 0) {
        throw new ToolError(`No label '${ref}'; labels are: ${some(labels.map((l) => String(l['name'])))}.`);
      }
      return String(matches[0]!['id']);
    });
  }

  /** A project by name (any case) or id. */
  async project(ref: string): Promise<Rec> {
    const projects = await this.projects();
    const found = projects.find((p) => p['id'] === ref || norm(String(p['name'])) === norm(ref));
    if (!found) {
      throw new ToolError(
        `No project '${ref}' that you can see; projects are: ${some(projects.map((p) => String(p['name'])))}.`,
      );
    }
    return found;
  }

  /**
   * A cycle of the team as both tools take it (cycleRef): its id, number or
   * name, or "current", "next" (the upcoming one that starts first) or
   * "previous" (the past one that ended last).
   */
  async cycle(teamId: string, teamKey: string, ref: string | number): Promise<string> {
    const cycles = await this.cycles(teamId);
    const r = norm(String(ref));
    const byStart = (a: Rec, b: Rec) => String(a['startsAt']).localeCompare(String(b['startsAt']));
    const relative = new Map<string, () => Rec | undefined>([
      ['current', () => cycles.find((c) => c['status'] === 'current')],
      ['next', () => cycles.filter((c) => c['status'] === 'upcoming').sort(byStart)[0]],
      [
        'previous',
        () =>
          cycles
            .filter((c) => c['status'] === 'past')
            .sort(byStart)
            .at(-1),
      ],
    ]);
    const pick = relative.get(r);
    const hit = pick
      ? pick()
      : cycles.find(
          (c) =>
            c['id'] === ref ||
            String(c['number']) === r ||
            (c['name'] !== null && norm(String(c['name'])) === r),
        );
    if (!hit) {
      throw new ToolError(
        `No cycle '${ref}' in ${teamKey}; cycles are: ${
          cycles.length
            ? some(cycles.map((c) => `${c['number']}${c['name'] ? ` ${c['name']}` : ''} (${c['status']})`))
            : 'none'
        }.`,
      );
    }
    return String(hit['id']);
  }

  /** A milestone of the project by name (any case) or id. */
  async milestone(projectId: string, projectName: string, ref: string): Promise<string> {
    const milestones = await this.milestones(projectId);
    const found = milestones.find((m) => m['id'] === ref || norm(String(m['name'])) === norm(ref));
    if (!found) {
      throw new ToolError(
        `No milestone '${ref}' in project ${projectName}; milestones are: ${
          milestones.length ? some(milestones.map((m) => String(m['name']))) : 'none'
        }.`,
      );
    }
    return String(found['id']);
  }
}
