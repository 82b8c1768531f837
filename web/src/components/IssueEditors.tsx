// In-place editors for an issue's title and description: Enter or leaving the
// field saves, Escape puts the old text back.
import { useEffect, useRef, useState } from 'react';
import { Markdown } from '../lib/markdown';
import { MentionTextArea } from './MentionTextArea';
import { Button } from './ui';

interface EditorProps {
  value: string;
  onSave: (v: string) => Promise<boolean>;
  /** Guests read: the text shows without a way to edit it. */
  readOnly?: boolean;
}

export function TitleEditor({ value, onSave, readOnly }: EditorProps) {
  const [draft, setDraft] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  // A change from elsewhere (live updates) shows at once, unless the field is being edited here.
  useEffect(() => {
    if (document.activeElement !== input.current) setDraft(value);
  }, [value]);
  const commit = () => {
    const v = draft.trim();
    if (v && v !== value) void onSave(v);
    else setDraft(value);
  };
  if (readOnly) return <h1 className="title-input">{value}</h1>;
  return (
    <>
      <label htmlFor="issue-title" className="label">
        Title
      </label>
      <input
        id="issue-title"
        ref={input}
        className="title-input"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          if (e.key === 'Escape') {
            setDraft(value);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
    </>
  );
}

export function DescriptionEditor({ value, onSave, readOnly }: EditorProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  if (editing)
    return (
      <form
        className="desc-edit"
        onSubmit={async (e) => {
          e.preventDefault();
          // A refused save keeps the editor open with the draft (the error shows below).
          if (await onSave(draft)) setEditing(false);
        }}
      >
        <MentionTextArea label="Description" value={draft} rows={10} autoFocus onText={setDraft} />
        <div className="row">
          <Button type="submit" variant="primary">
            Save description
          </Button>
          <Button onClick={() => setEditing(false)}>Cancel</Button>
          <span className="muted small">Markdown: **bold**, _italic_, `code`, lists, links, images</span>
        </div>
      </form>
    );
  return (
    <section className="description" aria-label="Description">
      {value ? <Markdown source={value} /> : <p className="muted">No description.</p>}
      {!readOnly && (
        <Button
          variant="ghost"
          onClick={() => {
            setDraft(value);
            setEditing(true);
          }}
        >
          Edit description
        </Button>
      )}
    </section>
  );
}
