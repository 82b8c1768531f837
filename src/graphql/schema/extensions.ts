// Fields our schema adds to the third-party one, each for a reason the
// specification gives. Additions only: a document valid against the
// third-party schema stays valid against ours.
import type { ThirdPartySchema } from './third-party.js';

const ADDED: Record<string, Record<string, string>> = {
  // SPEC: a deletion answers the id of what it removed; these deletions answer
  // archive payloads, which in the third-party schema carry no id.
  IssueArchivePayload: { entityId: 'String' },
  ProjectArchivePayload: { entityId: 'String' },
  // Issue 29: the list's and board's pull request marker, read with the page
  // (docs/git.md); the third-party schema has no field that says it without
  // reading every row's attachments.
  Issue: { pullRequestMarker: 'JSONObject' },
};

const ADDED_INPUTS: Record<string, Record<string, string>> = {
  // The audit log's free-text search (docs/identity.md, "Audit log"): the
  // third-party filter has no field that reads the actor, the target and the
  // type at once; REST names the same search `q`.
  AuditEntryFilter: { q: 'String' },
};

export function withOurFields(data: ThirdPartySchema): ThirdPartySchema {
  const objects = { ...data.objects };
  for (const [type, fields] of Object.entries(ADDED)) {
    const t = objects[type];
    if (!t) throw new Error(`extension of unknown type ${type}`);
    objects[type] = { ...t, fields: { ...t.fields, ...fields } };
  }
  const inputs = { ...data.inputs };
  for (const [type, fields] of Object.entries(ADDED_INPUTS)) {
    const t = inputs[type];
    if (!t) throw new Error(`extension of unknown input ${type}`);
    for (const field of Object.keys(fields)) {
      if (field in t) throw new Error(`${type}.${field} is the third-party schema's already`);
    }
    inputs[type] = { ...t, ...fields };
  }
  return { ...data, objects, inputs };
}
