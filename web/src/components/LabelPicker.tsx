import type { Label } from '../lib/ref';
// Labels as a group of toggle checkboxes: simple, and fully keyboard-usable.

export function LabelPicker({
  labels,
  value,
  onChange,
  disabled,
}: {
  labels: Label[];
  value: string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="label-picker" disabled={disabled}>
      <legend className="label">Labels</legend>
      {labels.map((l) => (
        <label key={l.id} className={`chip toggle${value.includes(l.id) ? ' on' : ''}`}>
          <input
            type="checkbox"
            checked={value.includes(l.id)}
            onChange={(e) => onChange(e.target.checked ? [...value, l.id] : value.filter((x) => x !== l.id))}
          />
          <span className="dot" style={{ background: l.color }} />
          {l.name}
        </label>
      ))}
    </fieldset>
  );
}
