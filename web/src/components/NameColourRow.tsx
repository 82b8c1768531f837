// One editable list row of a named, coloured thing (a label, a workflow state):
// colour and name inputs, Save (enabled once something changed), whatever
// buttons the caller adds, and the row's error below.
import { type ReactNode, useState } from 'react';
import { HEX } from '../lib/teams';
import { Button, ErrorMessage, fieldErrors } from './ui';

export function NameColourRow({
  current,
  what,
  onSave,
  error,
  children,
}: {
  current: { name: string; color: string };
  /** How screen readers name the row's controls: "label Bug", "Backlog". */
  what: string;
  onSave: (patch: { name: string; color: string }) => Promise<void>;
  error: unknown;
  children?: ReactNode;
}) {
  const [name, setName] = useState(current.name);
  const [color, setColor] = useState(current.color);
  const dirty = name !== current.name || color.toLowerCase() !== current.color.toLowerCase();
  const fields = fieldErrors(error);
  return (
    <li className="state-row">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty) void onSave({ name: name.trim(), color: color.toLowerCase() });
        }}
      >
        <input
          type="color"
          aria-label={`Colour of ${what}`}
          value={HEX.test(color) ? color.toLowerCase() : '#888888'}
          onChange={(e) => setColor(e.target.value)}
        />
        <input
          aria-label={`Name of ${what}`}
          value={name}
          aria-invalid={fields.name ? true : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <Button type="submit" disabled={!dirty || !name.trim()} aria-label={`Save ${what}`}>
          Save
        </Button>
        {children}
      </form>
      <ErrorMessage error={fields.name ?? fields.color ?? error} />
    </li>
  );
}
