// The world of test/visibility-matrix.test.ts, built over REST as the admin:
// a private team PRV (member: insider), a private team VLT (nobody but the
// admin), a public team PUB (the guest's only team) and the seeded ENG, each
// with records, cross-team parents, files and history. Then the oracle: who
// may see which row, computed from the tables with the written rules (not
// with the code under test), so every row of every team-scoped table counts.
import { sql } from 'kysely';
import type { Actor } from '../../src/platform/context.js';
import type { TestApp } from './harness.js';

export const ROLES = ['guest', 'outsider', 'insider', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type Kind =
  | 'team'
  | 'issue'
  | 'comment'
  | 'attachment'
  | 'reaction'
  | 'projectUpdate'
  | 'relation'
  | 'history'
  | 'cycle'
  | 'state'
  | 'membership'
  | 'label'
  | 'project'
  | 'milestone'
  | 'view'
  | 'file'
  | 'user';

/** A row, with the other strings that name it (identifier, key, slug, email). */
export interface Rec {
  kind: Kind;
  id: string;
  aliases: string[];
  /** For messages: "issue PRV-1". */
  label: string;
}

/** A word in the titles and names of each team's records; a secret team's word must not show. */
export const MARKERS: Record<string, string> = {
  PRV: 'quasar',
  VLT: 'vortex',
  ENG: 'nebula',
  PUB: 'pulsar',
};

export interface World {
  tokens: Record<Role, string>;
  userIds: Record<Role, string>;
  /** Named records of the setup (prv1, engChild, prvFile...). */
  ids: Record<string, string>;
  records: Rec[];
  visible: Record<Role, Set<string>>;
  /** Marker words of the teams the role may not see. */
  secretWords: Record<Role, string[]>;
  /** Visible issues per role (archived included), and those created by the admin. */
  issueCounts: Record<Role, { all: number; byAdmin: number }>;
}

const must = (res: { status: number; body: any }, key: string, what: string) => {
  if (res.status >= 300) throw new Error(`setup ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[key];
};

export async function buildWorld(t: TestApp): Promise<World> {
  const admin = t.adminToken;
  const post = async (url: string, body: unknown, key: string, token = admin) =>
    must(await t.post(url, body, token), key, `POST ${url}`);
  const users = {
    insider: await t.userWithRole('member'),
    outsider: await t.userWithRole('member'),
    guest: await t.userWithRole('guest'),
    // In ENG only: a user the guest shares no team with.
    engGuest: await t.userWithRole('guest'),
  };
  const me = must(await t.get('/api/auth/me', admin), 'user', 'me');
  const ids: Record<string, string> = {};

  for (const key of ['PRV', 'VLT', 'PUB']) {
    const team = await post(
      '/api/teams',
      { key, name: `Team ${MARKERS[key]}`, private: key !== 'PUB' },
      'team',
    );
    ids[key] = team.id;
  }
  ids['ENG'] = must(await t.get('/api/teams/ENG', admin), 'team', 'ENG').id;
  await post('/api/teams/PRV/members', { userId: users.insider.user.id }, 'membership');
  await post('/api/teams/PUB/members', { userId: users.guest.user.id }, 'membership');
  await post('/api/teams/ENG/members', { userId: users.engGuest.user.id }, 'membership');
  // The insider joined PUB on its creation; out of it, the guest shares no team with them.
  must(await t.del(`/api/teams/PUB/members/${users.insider.user.id}`, admin), 'ok', 'leave PUB');

  const upload = async (name: string) =>
    must(
      await t.request('POST', '/api/files', {
        token: admin,
        payload: `${name} bytes`,
        headers: { 'content-type': 'text/plain', 'x-filename': `${name}.txt` },
      }),
      'file',
      'upload',
    );
  const files = { prvFile: await upload('quasar'), pubFile: await upload('pulsar') };
  ids['orphanFile'] = (await upload('orphan')).id;

  const labels = must(await t.get('/api/labels', admin), 'labels', 'labels');
  ids['workspaceLabel'] = labels.find((l: any) => l.teamId === null).id;
  let week = 0;
  for (const key of ['PRV', 'VLT', 'ENG', 'PUB']) {
    const word = MARKERS[key];
    ids[`${key}label`] = (
      await post('/api/labels', { name: `${word} label`, color: '#123456', teamId: key }, 'label')
    ).id;
    const startsAt = new Date(Date.UTC(2026, 0, 5 + 14 * week++));
    const endsAt = new Date(startsAt.getTime() + 13 * 86_400_000);
    const cycle = { teamId: key, name: `${word} cycle`, startsAt, endsAt };
    ids[`${key}cycle`] = (await post('/api/cycles', cycle, 'cycle')).id;
    ids[`${key}project`] = (
      await post('/api/projects', { name: `${word} project`, teamIds: [key] }, 'project')
    ).id;
    ids[`${key}milestone`] = (
      await post(
        `/api/projects/${ids[`${key}project`]}/milestones`,
        { name: `${word} milestone` },
        'milestone',
      )
    ).id;
  }
  // Saved views: one shared with each team, one with the workspace, and
  // personal ones (an admin's own is still nobody else's).
  for (const key of ['PRV', 'VLT', 'ENG', 'PUB']) {
    const body = { name: `${MARKERS[key]} view`, shared: true, teamId: key };
    ids[`${key}view`] = (await post('/api/views', body, 'view')).id;
  }
  ids['workspaceView'] = (await post('/api/views', { name: 'Workspace view', shared: true }, 'view')).id;
  ids['adminView'] = (await post('/api/views', { name: 'Admin own view' }, 'view')).id;
  ids['insiderView'] = (
    await post('/api/views', { name: 'Insider own view' }, 'view', users.insider.token)
  ).id;
  ids['sharedProject'] = (
    await post('/api/projects', { name: 'Shared plan', teamIds: ['ENG', 'PRV'] }, 'project')
  ).id;
  ids['looseProject'] = (await post('/api/projects', { name: 'Loose plan', teamIds: [] }, 'project')).id;
  // Project updates are seen with their project: one on each team's, the shared and the loose one.
  for (const key of ['PRV', 'VLT', 'ENG', 'PUB', 'shared', 'loose']) {
    const body = { body: `${MARKERS[key] ?? key} update`, health: 'atRisk' };
    ids[`${key}Update`] = (
      await post(
        `/api/projects/${ids[`${key}${MARKERS[key] ? 'project' : 'Project'}`]}/updates`,
        body,
        'projectUpdate',
      )
    ).id;
  }

  const issue = async (name: string, teamId: string, extra: Record<string, unknown> = {}, token = admin) => {
    const created = await post(
      '/api/issues',
      { title: `${MARKERS[teamId]} ${name}`, teamId, ...extra },
      'issue',
      token,
    );
    ids[name] = created.id;
    return created;
  };
  await issue('engParent', 'ENG', { assigneeId: users.insider.user.id, labelIds: [ids['workspaceLabel']] });
  const prv1 = await issue('prv1', 'PRV', {
    assigneeId: users.insider.user.id,
    labelIds: [ids['PRVlabel'], ids['workspaceLabel']],
    projectId: ids['PRVproject'],
    projectMilestoneId: ids['PRVmilestone'],
    cycleId: ids['PRVcycle'],
  });
  await issue('prvChild', 'PRV', { parentId: ids['engParent'], projectId: ids['sharedProject'] });
  await issue('prvParent', 'PRV');
  await issue('engChild', 'ENG', {
    parentId: ids['prvParent'],
    projectId: ids['sharedProject'],
    cycleId: ids['ENGcycle'],
  });
  // Created by the insider, so that the admin's created-issue count has no archived issue in it.
  await issue('prvArchived', 'PRV', {}, users.insider.token);
  must(await t.post(`/api/issues/${ids['prvArchived']}/archive`, {}, admin), 'issue', 'archive');
  await issue('vlt1', 'VLT', { labelIds: [ids['workspaceLabel']] });
  await issue('pub1', 'PUB', { labelIds: [ids['PUBlabel']] });

  // History: a new title and state on prv1.
  const states = must(await t.get('/api/workflow-states?teamId=PRV', admin), 'workflowStates', 'states');
  const started = states.find((s: any) => s.type === 'started').id;
  must(
    await t.patch(`/api/issues/${prv1.id}`, { title: 'quasar prv1 renamed', stateId: started }, admin),
    'issue',
    'patch',
  );

  const comment = async (name: string, issueId: string, body: string, extra = {}, token = admin) => {
    ids[name] = (await post(`/api/issues/${issueId}/comments`, { body, ...extra }, 'comment', token)).id;
  };
  await comment('prvComment', prv1.id, 'quasar comment');
  await comment('prvReply', prv1.id, 'quasar reply', { parentId: ids['prvComment'] }, users.insider.token);
  await comment('engComment', ids['engParent']!, 'nebula comment');
  await comment('pubComment', ids['pub1']!, 'pulsar comment');
  const attach = async (name: string, issueId: string, title: string, url: string) => {
    ids[name] = (await post(`/api/issues/${issueId}/attachments`, { title, url }, 'attachment')).id;
  };
  // Reactions are seen with their issue: on a comment and on the issue itself.
  const react = async (name: string, path: string, emoji: string) => {
    ids[name] = (await post(`${path}/reactions`, { emoji }, 'reaction')).id;
  };
  await react('prvCommentReaction', `/api/comments/${ids['prvComment']}`, '👍');
  await react('prvIssueReaction', `/api/issues/${prv1.id}`, '🎉');
  await react('engIssueReaction', `/api/issues/${ids['engParent']}`, '🚀');
  await react('pubCommentReaction', `/api/comments/${ids['pubComment']}`, '👀');
  await attach('prvFileAttachment', prv1.id, 'quasar file', files.prvFile.url);
  await attach('prvLink', prv1.id, 'quasar link', 'https://example.com/quasar');
  await attach('engLink', ids['engParent']!, 'nebula link', 'https://example.com/nebula');
  await attach('pubFileAttachment', ids['pub1']!, 'pulsar file', files.pubFile.url);
  // Relations across teams: each is visible only where both of its issues are.
  const relate = async (name: string, from: string, type: string, to: string) => {
    ids[name] = (await post(`/api/issues/${from}/relations`, { type, relatedIssueId: to }, 'relation')).id;
  };
  await relate('prvBlocksEng', prv1.id, 'blocks', ids['engParent']!);
  await relate('engRelatedPub', ids['engParent']!, 'related', ids['pub1']!);
  await relate('vltSimilarPrv', ids['vlt1']!, 'similar', ids['prvParent']!);
  // One that everyone sees, the guest included (PUB is their only team).
  await issue('pub2', 'PUB');
  await relate('pubBlocksPub', ids['pub1']!, 'blocks', ids['pub2']!);
  ids['prvFile'] = files.prvFile.id;
  ids['pubFile'] = files.pubFile.id;

  const tokens = {
    admin,
    insider: users.insider.token,
    outsider: users.outsider.token,
    guest: users.guest.token,
  };
  const userIds = {
    admin: me.id as string,
    insider: users.insider.user.id as string,
    outsider: users.outsider.user.id as string,
    guest: users.guest.user.id as string,
  };
  const names = Object.fromEntries(
    [...Object.entries(userIds), ['engGuest', users.engGuest.user.id]].map(([n, id]) => [id, n]),
  );
  return { tokens, userIds, ids, ...(await oracle(t, userIds, names)) };
}

/** Who sees what, by the rules in the brief, from the tables. */
async function oracle(t: TestApp, userIds: Record<Role, string>, names: Record<string, string>) {
  const rows = async (text: string) => (await sql.raw<any>(text).execute(t.ctx.db)).rows as any[];
  const teams = await rows(
    'select t.id, t.key, t.private, array(select k.key from team_keys k where k.team_id = t.id) as keys from teams t',
  );
  const users = await rows('select id, email, role from users');
  const issues =
    await rows(`select i.id, i.team_id, i.creator_id, i.identifier, i.archived_at is not null as archived,
    array(select x.identifier from issue_identifiers x where x.issue_id = i.id) as idents from issues i`);
  const memberships =
    await rows(`select m.id, m.team_id, m.user_id, (m.archived_at is null and u.deleted_at is null) as live
    from team_memberships m join users u on u.id = m.user_id`);
  const projects = await rows(
    'select p.id, p.name, p.slug_id, array(select pt.team_id from project_teams pt where pt.project_id = p.id) as teams from projects p',
  );
  const attachments = await rows('select id, issue_id, title, url from attachments');
  const milestones = await rows('select id, project_id, name from project_milestones');
  const key = new Map(teams.map((x) => [x.id, x.key]));
  const ident = new Map(issues.map((x) => [x.id, x.identifier]));
  const who = (id: string) => names[id] ?? users.find((u) => u.id === id)?.email;
  const publicUrl = t.config.publicUrl.replace(/\/$/, '');

  // Every row, as a record with a readable label and the row it came from.
  const all: { rec: Rec; row: any }[] = [];
  const add = (
    kind: Kind,
    list: any[],
    label: (x: any) => string,
    aliases: (x: any) => string[] = () => [],
  ) => {
    for (const row of list)
      all.push({ rec: { kind, id: row.id, label: `${kind} ${label(row)}`, aliases: aliases(row) }, row });
  };
  add(
    'team',
    teams,
    (x) => x.key,
    (x) => [...new Set([x.key, ...x.keys])],
  );
  add(
    'issue',
    issues,
    (x) => x.identifier,
    (x) => x.idents,
  );
  add(
    'user',
    users,
    (x) => who(x.id)!,
    (x) => [x.email],
  );
  add('membership', memberships, (x) => `of ${who(x.user_id)} in ${key.get(x.team_id)}`);
  add(
    'project',
    projects,
    (x) => `"${x.name}"`,
    (x) => [x.slug_id],
  );
  add('milestone', milestones, (x) => `"${x.name}"`);
  add('projectUpdate', await rows('select id, project_id, body from project_updates'), (x) => `"${x.body}"`);
  add(
    'view',
    await rows('select id, name, shared, owner_id, team_id from custom_views'),
    (x) => `"${x.name}"`,
  );
  add('attachment', attachments, (x) => `"${x.title}" on ${ident.get(x.issue_id)}`);
  add('comment', await rows('select id, issue_id from comments'), (x) => `on ${ident.get(x.issue_id)}`);
  add(
    'reaction',
    await rows('select id, issue_id, emoji from reactions'),
    (x) => `${x.emoji} on ${ident.get(x.issue_id)}`,
  );
  add(
    'relation',
    await rows('select id, issue_id, related_issue_id, type from issue_relations'),
    (x) => `${ident.get(x.issue_id)} ${x.type} ${ident.get(x.related_issue_id)}`,
  );
  add('history', await rows('select id, issue_id from issue_history'), (x) => `of ${ident.get(x.issue_id)}`);
  add('file', await rows('select id, uploader_id, filename from files'), (x) => x.filename);
  const ofTeam = (x: any) => `of ${key.get(x.team_id) ?? 'the workspace'}`;
  add('cycle', await rows('select id, team_id, number from cycles'), (x) => `${x.number} ${ofTeam(x)}`);
  add('state', await rows('select id, team_id, name from workflow_states'), (x) => `${x.name} ${ofTeam(x)}`);
  add('label', await rows('select id, team_id, name from labels'), (x) => `"${x.name}" ${ofTeam(x)}`);

  const issueTeam = new Map(issues.map((x) => [x.id, x.team_id]));
  const roleOf = new Map(users.map((u) => [u.id, u.role]));
  const visible = {} as Record<Role, Set<string>>;
  const secretWords = {} as Record<Role, string[]>;
  const issueCounts = {} as World['issueCounts'];
  for (const role of ROLES) {
    const me = userIds[role];
    const kind = roleOf.get(me);
    const mine = new Set(memberships.filter((m) => m.live && m.user_id === me).map((m) => m.team_id));
    const seesTeam = (id: string | null) =>
      id === null ||
      kind === 'admin' ||
      mine.has(id) ||
      (kind === 'member' && !teams.find((x) => x.id === id)?.private);
    const seesIssue = (id: string) => seesTeam(issueTeam.get(id));
    const rule: Record<Kind, (row: any) => boolean> = {
      team: (x) => seesTeam(x.id),
      issue: (x) => seesTeam(x.team_id),
      comment: (x) => seesIssue(x.issue_id),
      attachment: (x) => seesIssue(x.issue_id),
      // A comment's reaction carries the comment's issue.
      reaction: (x) => seesIssue(x.issue_id),
      relation: (x) => seesIssue(x.issue_id) && seesIssue(x.related_issue_id),
      history: (x) => seesIssue(x.issue_id),
      cycle: (x) => seesTeam(x.team_id),
      state: (x) => seesTeam(x.team_id),
      membership: (x) => seesTeam(x.team_id),
      label: (x) => seesTeam(x.team_id),
      // Linked to a team the role sees; linked to none: members and admins.
      project: (x) => (x.teams.length ? x.teams.some(seesTeam) : kind !== 'guest'),
      // With its project.
      milestone: (x) => rule.project(projects.find((p) => p.id === x.project_id)),
      projectUpdate: (x) => rule.project(projects.find((p) => p.id === x.project_id)),
      // Its owner's; shared: with its team, or (no team) every member and admin.
      view: (x) =>
        x.owner_id === me || (x.shared && (x.team_id === null ? kind !== 'guest' : seesTeam(x.team_id))),
      file: (x) =>
        kind === 'admin' ||
        x.uploader_id === me ||
        attachments.some((a) => a.url === `${publicUrl}/api/files/${x.id}` && seesIssue(a.issue_id)),
      user: (x) =>
        kind !== 'guest' ||
        x.id === me ||
        memberships.some((m) => m.live && m.user_id === x.id && mine.has(m.team_id)),
    };
    visible[role] = new Set(all.filter(({ rec, row }) => rule[rec.kind](row)).map(({ rec }) => rec.id));
    secretWords[role] = teams
      .filter((x) => !visible[role].has(x.id) && MARKERS[x.key])
      .map((x) => MARKERS[x.key]!);
    const seen = issues.filter((i) => visible[role].has(i.id));
    issueCounts[role] = {
      all: seen.length,
      byAdmin: seen.filter((i) => i.creator_id === userIds.admin && !i.archived).length,
    };
  }
  return { records: all.map(({ rec }) => rec), visible, secretWords, issueCounts };
}

/** Each role's user as the services take it (an API-key caller), for tests that call services directly. */
export async function worldActors(t: TestApp, world: World): Promise<Record<Role, Actor>> {
  const users = await t.ctx.db
    .selectFrom('users')
    .select(['id', 'role', 'name', 'email'])
    .where(
      'id',
      'in',
      ROLES.map((r) => world.userIds[r]),
    )
    .execute();
  const byId = new Map(users.map((u) => [u.id, u]));
  const actors = {} as Record<Role, Actor>;
  for (const role of ROLES) {
    const u = byId.get(world.userIds[role]);
    if (!u) throw new Error(`setup: no user for ${role}`);
    actors[role] = { ...u, role: u.role as Actor['role'], via: 'apiKey' };
  }
  return actors;
}
