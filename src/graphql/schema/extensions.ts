// Fields our schema adds to the third-party one, each for a reason the
// specification gives. Additions only: a document valid against the
// third-party schema stays valid against ours.
import type { ThirdPartySchema } from './third-party.js';

const ADDED: Record<string, Record<string, string>> = {
  // SPEC: a deletion answers the id of what it removed; these deletions answer
  // archive payloads, which in the third-party schema carry no id.
  IssueArchivePayload: { entityId: 'String' },
  ProjectArchivePayload: { entityId: 'String' },
};

export function withOurFields(data: ThirdPartySchema): ThirdPartySchema {
  const objects = { ...data.objects };
  for (const [type, fields] of Object.entries(ADDED)) {
    const t = objects[type];
    if (!t) throw new Error(`extension of unknown type ${type}`);
    objects[type] = { ...t, fields: { ...t.fields, ...fields } };
  }
  return { ...data, objects };
}
