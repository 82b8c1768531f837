// Two-step uploads leave a 'pending' files row until their bytes arrive; grants
// never used are swept by age, which this partial index keeps cheap.
export const name = 'file_uploads';

export const up = /* sql */ `
create index files_pending on files (created_at) where status = 'pending';
`;
