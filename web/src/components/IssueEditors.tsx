// In-place editors for an issue's title and description: Enter or leaving the
// title saves, Escape puts the old text back; the description opens the rich
// editor (Mod-Enter saves) and its checklists tick in place.
import { useEffect, useRef, useState } from 'react';
import { Markdown, setTask } from '../lib/markdown';
import { MarkdownField } from './MarkdownField';
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
  // A refused save keeps the editor open with the draft (the error shows below).
  const save = async () => {
    if (await onSave(draft)) setEditing(false);
  };
  if (editing)
    return (
      <form
        className="desc-edit"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <MarkdownField
          label="Description"
          value={draft}
          rows={10}
          autoFocus
          onText={setDraft}
          onSubmit={save}
        />
        <div className="row">
          <Button type="submit" variant="primary">
            Save description
          </Button>
          <Button onClick={() => setEditing(false)}>Cancel</Button>
          <span className="muted small">Type / for blocks, @ to mention; Markdown works as you type</span>
        </div>
      </form>
    );
  return (
    <section className="description" aria-label="Description">
      {value ? (
        <Markdown
          source={value}
          // A tick is a description update like any other (optimistic, put back if refused).
          onTask={readOnly ? undefined : (line, done) => void onSave(setTask(value, line, done))}
        />
      ) : (
        <p className="muted">No description.</p>
      )}
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
