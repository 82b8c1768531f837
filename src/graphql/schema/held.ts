// Which fields of the third-party schema this service holds. A field is held
// when something produces it: a resolver, a getter of a row node
// (nodes.ts nodeFields), a property of the plain objects listed below, or the
// shape every connection, edge and payload of a held operation shares.
// Everything else answers the same way for every client (build-schema.ts).
import { TRACKED } from '../../modules/issues/present.js';
import { nodeFields } from '../nodes.js';
import { AUDIT_ENTRY_FIELDS } from '../resolvers/audit.js';
import { ACTOR_BOT_FIELDS } from '../resolvers/bot-actor.js';
import { SESSION_RESPONSE_FIELDS } from '../resolvers/sessions.js';
import type { IsHeld } from './build.js';
import { fieldType, namedType, type ThirdPartySchema } from './third-party.js';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Plain objects built by resolvers rather than row nodes, and the fields they
 * carry. test/graphql-schema-model.test.ts selects every field of each and
 * fails if one not listed here carries a value.
 */
const PLAIN_FIELDS: Record<string, string[]> = {
  // resolvers/organization.ts organization(): stored, counted, or fixed by this service.
  Organization: [
    'id',
    'name',
    'urlKey',
    'createdAt',
    'updatedAt',
    'userCount',
    'createdIssueCount',
    'allowedAuthServices',
    'projectStatuses',
    'releaseChannel',
    'projectUpdateRemindersDay',
    'initiativeUpdateRemindersDay',
    'projectUpdatesReminderFrequency',
    'slaDayCount',
    'pullRequestIssueMode',
    'gitBranchFormat',
    'fiscalYearStartMonth',
    'roadmapEnabled',
  ],
  TeamMembership: ['id', 'owner', 'sortOrder', 'createdAt', 'updatedAt', 'archivedAt'],
  UploadFile: ['uploadUrl', 'assetUrl', 'headers', 'contentType', 'filename', 'size', 'metaData'],
  UploadFileHeader: ['key', 'value'],
  IssueSearchPayload: ['totalCount'],
  // resolvers/bot-actor.ts: the app that wrote a record under its own name.
  ActorBot: [...ACTOR_BOT_FIELDS],
  // resolvers/sessions.ts: a sign-in session as the session list shows it.
  AuthenticationSessionResponse: [...SESSION_RESPONSE_FIELDS],
  LogoutResponse: ['success'],
  // resolvers/audit.ts: an audit entry and the catalogue's types.
  AuditEntry: [...AUDIT_ENTRY_FIELDS],
  AuditEntryType: ['type', 'description'],
  // connections.ts historyNode(): each tracked change as fromX/toX.
  IssueHistory: [
    'id',
    'createdAt',
    'updatedAt',
    'actorId',
    'archived',
    'addedLabelIds',
    'removedLabelIds',
    ...TRACKED.flatMap((f) => [`from${capital(f)}`, `to${capital(f)}`]),
  ],
};

const PAGE_INFO = ['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor'];

export function heldModel(
  data: ThirdPartySchema,
  resolvers: Record<string, Record<string, unknown>>,
): IsHeld {
  const held = new Map<string, Set<string>>();
  const hold = (type: string, fields: Iterable<string>) => {
    const set = held.get(type) ?? new Set<string>();
    for (const f of fields) set.add(f);
    held.set(type, set);
  };
  for (const [type, fields] of Object.entries(resolvers)) hold(type, Object.keys(fields));
  for (const [type, fields] of Object.entries(nodeFields)) hold(type, fields);
  for (const [type, fields] of Object.entries(PLAIN_FIELDS)) hold(type, fields);
  hold('PageInfo', PAGE_INFO);

  // What a held list or mutation returns is held in its shared shape: a
  // connection's page, an edge's node and cursor, a payload's outcome and record.
  const object = (name: string) => data.objects[name];
  for (const root of ['Query', 'Mutation'] as const) {
    for (const field of held.get(root) ?? []) {
      const entry = object(root)?.fields[field];
      if (entry) holdShape(namedType(fieldType(entry)));
    }
  }
  for (const [type, fields] of [...held]) {
    for (const field of fields) {
      const entry = object(type)?.fields[field];
      if (entry && /Connection$/.test(namedType(fieldType(entry)))) holdShape(namedType(fieldType(entry)));
    }
  }
  function holdShape(name: string) {
    const t = object(name);
    if (!t) return;
    if (/Connection$/.test(name)) {
      hold(name, ['nodes', 'edges', 'pageInfo']);
      const edge = name.replace(/Connection$/, 'Edge');
      if (object(edge)) hold(edge, ['node', 'cursor']);
    } else if (/Payload$/.test(name)) {
      hold(
        name,
        Object.entries(t.fields)
          .filter(
            ([f, e]) =>
              f === 'success' ||
              f === 'lastSyncId' ||
              f === 'entityId' ||
              object(namedType(fieldType(e))) ||
              data.interfaces[namedType(fieldType(e))],
          )
          .map(([f]) => f),
      );
      // A payload that pages (IssueSearchPayload) hands out edges as a connection does.
      const edges = t.fields['edges'];
      if (edges) hold(namedType(fieldType(edges)), ['node', 'cursor']);
    }
  }
  return (type, field) => held.get(type)?.has(field) ?? false;
}
