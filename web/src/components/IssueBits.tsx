import { avatarColour, initials } from '../lib/avatar';
import { shortDate, today } from '../lib/dates';
import { priorityLabel } from '../lib/issues';
import type { Label, Person, State } from '../lib/ref';
// Small visual pieces shared by the list, the board and the issue page.

export function StateIcon({ state }: { state: State | undefined }) {
  const type = state?.type ?? 'backlog';
  const color = state?.color ?? '#bbb';
  const fill = type === 'completed' ? 1 : type === 'started' ? 0.5 : 0;
  return (
    <svg className="state-icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <circle
        cx="7"
        cy="7"
        r="6"
        fill="none"
        stroke={color}
        strokeWidth="1.5"
        strokeDasharray={type === 'backlog' ? '2 2' : undefined}
      />
      {fill > 0 && fill < 1 && <path d="M7 3 A4 4 0 0 1 7 11 Z" fill={color} />}
      {fill === 1 && <circle cx="7" cy="7" r="4" fill={color} />}
      {type === 'canceled' && (
        <path d="M4.5 4.5 L9.5 9.5 M9.5 4.5 L4.5 9.5" stroke={color} strokeWidth="1.5" />
      )}
    </svg>
  );
}

export function PriorityIcon({ priority }: { priority: number }) {
  const label = priorityLabel(priority);
  if (priority === 1)
    return (
      <span className="prio prio-urgent" title={label} role="img" aria-label={label}>
        !
      </span>
    );
  const bars = priority === 0 ? 0 : 5 - priority; // high 3, medium 2, low 1
  return (
    <svg className="prio" width="14" height="14" viewBox="0 0 14 14" role="img" aria-label={label}>
      <title>{label}</title>
      {[0, 1, 2].map((b) => (
        <rect
          key={b}
          x={2 + b * 4}
          y={10 - b * 3}
          width="2.5"
          height={3 + b * 3}
          rx="0.6"
          fill={priority === 0 ? '#d0d0d6' : b < bars ? '#5c5f6a' : '#d0d0d6'}
        />
      ))}
    </svg>
  );
}

/** Shown when an issue waits on an unresolved blocker: a word and an icon, never colour alone. */
export function BlockedMarker() {
  return (
    <span className="blocked-marker" role="img" aria-label="Blocked" title="Blocked by an open issue">
      <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
        <circle cx="6" cy="6" r="5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M2.5 9.5 L9.5 2.5" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <span aria-hidden="true">Blocked</span>
    </span>
  );
}

/** A person's initials on their colour (lib/avatar.ts); decoration beside their written name. */
export function Initials({ person }: { person: { id: string; name: string } | null | undefined }) {
  if (!person)
    return (
      <span className="avatar avatar-none" aria-hidden="true">
        ?
      </span>
    );
  return (
    <span className={`avatar c${avatarColour(person.id)}`} aria-hidden="true">
      {initials(person.name)}
    </span>
  );
}

/** The assignee of a row or card: their initials, named for screen readers (no written name beside it). */
export function Avatar({ person }: { person: Person | undefined }) {
  if (!person)
    return (
      <span className="avatar avatar-none" title="Unassigned" role="img" aria-label="Unassigned">
        ?
      </span>
    );
  return (
    <span
      className={`avatar c${avatarColour(person.id)}`}
      title={person.name}
      role="img"
      aria-label={`Assigned to ${person.name}`}
    >
      {initials(person.name)}
    </span>
  );
}

export function LabelChips({ labels }: { labels: Label[] }) {
  return (
    <span className="chips">
      {labels.map((l) => (
        <span key={l.id} className="chip">
          <span className="dot" style={{ background: l.color }} />
          {l.name}
        </span>
      ))}
    </span>
  );
}

/**
 * A due date: past and the issue still open, it reads "Overdue" to screen readers and shows an
 * icon in the warning colour (never colour alone); otherwise a plain date.
 */
export function DueDate({ date, done }: { date: string; done: boolean }) {
  const overdue = !done && date < today();
  return (
    <span
      className={`due${overdue ? ' overdue' : ''}`}
      title={overdue ? `Overdue: was due ${date}` : `Due ${date}`}
    >
      {overdue && (
        <svg width="11" height="11" viewBox="0 0 12 12" aria-hidden="true">
          <circle cx="6" cy="6" r="5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M6 3v3.5M6 8.5v.5" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      )}
      <span className="sr-only">{overdue ? 'Overdue, due ' : 'Due '}</span>
      {shortDate(date)}
    </span>
  );
}
