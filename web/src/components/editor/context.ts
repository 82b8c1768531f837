// What the editor needs from the rest of the app, handed in by MarkdownField
// (which is in the main bundle) so that the lazily loaded editor imports none
// of the app's modules: sharing them would split them out of the main bundle
// into chunks of their own, a cost on every first load.

export interface Mentionable {
  id: string;
  name: string;
  displayName: string;
}

/** The app's data and doors, as MarkdownField passes them (current on every render). */
export interface EditorServices {
  /** People who may be mentioned (the reference data). */
  people: readonly Mentionable[];
  /** Team keys that exist: `ENG-12` shows as a chip only for these. */
  teamKeys: ReadonlySet<string>;
  /** Whether files may be uploaded at all (the attachments feature). */
  canUpload: boolean;
  /** Issues matching a query, for `@` completion (the same search as the command menu). */
  searchIssues: (query: string) => Promise<{ identifier: string; title: string }[]>;
  /** Uploads a file (lib/files.ts); its address. */
  upload: (file: File) => Promise<string>;
  /** What an <img> in the editor can show for `src`: this server's files need the token (a blob). */
  showImage: (src: string) => Promise<string | null>;
}

/** What the editor's behaviour reads, through getters: the extensions are made once per editor. */
export interface EditorContext {
  services: () => EditorServices;
  /** Mod-Enter: the form's submit, if any. */
  submit: () => void;
  /** An image upload was refused: the reason, for the field's error line. */
  uploadFailed: (error: unknown) => void;
}
