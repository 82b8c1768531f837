// Uploaded bytes kept in the database (FILE_STORAGE=postgres): each stored
// object is a run of chunks of at most 256 KiB, so a file is written and read
// a chunk at a time and never needs to fit in one value or in memory. Keys are
// storage keys, not files rows: the bytes are stored before their row exists.
// Chunks of an upload still arriving carry `pending_since` under a key of
// their own; one short transaction publishes them under the real key.
export const name = 'file_chunks';

export const up = /* sql */ `
create table file_chunks (
  storage_key text not null,
  chunk_index integer not null check (chunk_index >= 0),
  data bytea not null check (octet_length(data) <= 262144),
  pending_since timestamptz,
  primary key (storage_key, chunk_index)
);
-- Uploads are mostly compressed already (images, archives, PDFs): storing them
-- out of line without another compression pass saves CPU for nothing lost.
alter table file_chunks alter column data set storage external;
-- Finds what a crash left of uploads in progress, for the sweep.
create index file_chunks_pending on file_chunks (pending_since) where pending_since is not null;
`;
