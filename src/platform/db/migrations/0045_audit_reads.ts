// The admin's reads of the audit log (modules/audit/read.ts): every filter has
// its index. 0041 indexes the type, the actor and (type, id) of the entity; a
// filter by the entity's id alone needs its own.
export const name = 'audit_reads';

export const up = /* sql */ `
create index audit_entries_entity_id on audit_entries (entity_id, created_at desc);
`;
