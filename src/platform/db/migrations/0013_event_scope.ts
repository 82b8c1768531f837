// Who may see each change event, recorded with it so the change stream
// (modules/stream) can filter without the record, which may be gone by then
// (a removal) or may have moved. `scope` says how `team_ids` is read
// (platform/access.ts canSeeEvent): 'teams' needs every listed team visible
// (an issue, comment, cycle, team label: one team; a relation: both issues'
// teams), 'project' any of them or, with none, a non-guest (projects and
// their milestones), 'workspace' everyone (workspace labels). Events written
// before this migration have no scope and are shown to admins only.
export const name = 'event_scope';

export const up = /* sql */ `
alter table webhook_events add column scope text check (scope in ('teams', 'project', 'workspace'));
alter table webhook_events add column team_ids uuid[] not null default '{}';
`;
