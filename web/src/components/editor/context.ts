// What the editor's behaviour reads from the page, through getters so that
// the extensions, made once per editor, always see the current values.
export interface EditorContext {
  /** People who may be mentioned (the reference data). */
  people: () => readonly { id: string; name: string; displayName: string }[];
  /** Team keys that exist: `ENG-12` shows as a chip only for these. */
  teamKeys: () => ReadonlySet<string>;
  /** Issues matching a query, for `@` completion (the same search as the command menu). */
  searchIssues: (query: string) => Promise<{ identifier: string; title: string }[]>;
  /** Mod-Enter: the form's submit, if any. */
  submit: () => void;
  /** An image upload was refused: the reason, for the field's error line. */
  uploadFailed: (error: unknown) => void;
  /** Whether files may be uploaded at all (the attachments feature). */
  canUpload: () => boolean;
}
