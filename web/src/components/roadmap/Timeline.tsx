// The roadmap: projects as bars from start to target date on a time axis
// (week, month or quarter), their milestones as diamonds, a line at today,
// and the projects without both dates listed apart. Members drag a bar to
// move it, its ends to change one date, a diamond to move a milestone; or, on
// a focused bar, arrow keys move it by a day (Shift: the target, Alt: the
// start). Each change shows at once and is put back if refused (lib/roadmap.ts).
// Only the rows in view are rendered, so hundreds of projects stay smooth.
import { Link } from '@tanstack/react-router';
import { type PointerEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { fullDate, monthLabel, quarterLabel, shortDate, today } from '../../lib/dates';
import { pressed, type ShortcutId } from '../../lib/keys';
import { type DateMove, type RoadmapProject, useDateMove, useRoadmap } from '../../lib/roadmap';
import {
  dayOf,
  daysIn,
  isoOf,
  type Scale,
  scaleFor,
  ticksOf,
  widthOf,
  xOf,
  ZOOMS,
  type Zoom,
} from '../../lib/timeline-scale';
import { HEALTH } from '../../pages/Projects';
import { Button, ErrorMessage, Loading, SelectField } from '../ui';
import { GROUPINGS, type Grouping, type Row, rowsOf } from './rows';

const ROW_H = 40;
const OVERSCAN = 6;
/** Keys pressed within this long are one change, saved once. */
const KEY_SETTLE_MS = 600;

const ZOOM_NAME: Record<Zoom, string> = { week: 'Weeks', month: 'Months', quarter: 'Quarters' };
const GROUP_NAME: Record<Grouping, string> = { none: 'No grouping', team: 'Team', status: 'Status' };

type Edge = 'move' | 'start' | 'end';
/** A focused bar's keys (lib/keys.ts): which edge they move, and which way. */
const PROJECT_KEYS: readonly [ShortcutId, Edge, 1 | -1][] = [
  ['timeline.later', 'move', 1],
  ['timeline.earlier', 'move', -1],
  ['timeline.targetLater', 'end', 1],
  ['timeline.targetEarlier', 'end', -1],
  ['timeline.startLater', 'start', 1],
  ['timeline.startEarlier', 'start', -1],
];

export function Timeline({
  zoom,
  grouping,
  onChange,
  canEdit,
}: {
  zoom: Zoom;
  grouping: Grouping;
  onChange: (next: { zoom: Zoom; grouping: Grouping }) => void;
  canEdit: boolean;
}) {
  const q = useRoadmap();
  const [preview, setPreview] = useState<DateMove | null>(null);
  const [said, say] = useState('');
  const settle = useRef<{ timer: number; move: DateMove } | null>(null);

  const save = useDateMove((move, error) => {
    const what = describe(move, q.data ?? []);
    if (!error) say(`Saved: ${what}`);
    else
      say(`Not saved: ${error instanceof Error ? error.message : String(error)}. Back to the saved dates.`);
  });
  const commit = async (move: DateMove) => {
    setPreview(move);
    await save.run(move);
    setPreview((now) => (now === move ? null : now));
  };
  /** A keyboard change: shown and announced now, saved when the keys settle (or focus leaves). */
  const nudge = (move: DateMove) => {
    setPreview(move);
    say(describe(move, q.data ?? []));
    if (settle.current) window.clearTimeout(settle.current.timer);
    settle.current = { move, timer: window.setTimeout(flush, KEY_SETTLE_MS) };
  };
  function flush() {
    const pending = settle.current;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    settle.current = null;
    void commit(pending.move);
  }
  // Leaving the page saves what the keys changed.
  const flushLater = useRef(flush);
  flushLater.current = flush;
  useEffect(() => () => flushLater.current(), []);

  const today0 = dayOf(today());
  const { rows, undated } = useMemo(() => rowsOf(q.data ?? [], grouping), [q.data, grouping]);
  const scale = useMemo(() => {
    const days: number[] = [];
    for (const r of rows) {
      if (r.kind !== 'project') continue;
      const p = r.project;
      if (p.startDate) days.push(dayOf(p.startDate));
      if (p.targetDate) days.push(dayOf(p.targetDate));
      for (const m of p.milestones) if (m.targetDate) days.push(dayOf(m.targetDate));
    }
    return scaleFor(zoom, days, today0);
  }, [rows, zoom, today0]);

  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const toToday = () => {
    const el = scroller.current;
    if (el) el.scrollLeft = Math.max(0, xOf(scale, today0) - 120);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens on today when the zoom changes or the data arrives, not on every drag that widens the axis
  useLayoutEffect(toToday, [zoom, q.isSuccess]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scroller exists once the data is in
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [q.isSuccess]);

  if (q.isLoading) return <Loading label="Loading timeline" />;
  if (q.error) return <ErrorMessage error={q.error} />;

  const shown = (p: RoadmapProject): RoadmapProject => {
    if (!preview) return p;
    if (preview.kind === 'project' && preview.id === p.id)
      return { ...p, startDate: preview.startDate, targetDate: preview.targetDate };
    if (preview.kind === 'milestone' && preview.projectId === p.id)
      return {
        ...p,
        milestones: p.milestones.map((m) =>
          m.id === preview.id ? { ...m, targetDate: preview.targetDate } : m,
        ),
      };
    return p;
  };

  const first = Math.max(0, Math.floor(view.top / ROW_H) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((view.top + view.height) / ROW_H) + OVERSCAN);
  const width = widthOf(scale);

  /** A pointer drag on a bar or diamond: previews whole-day moves, saves on release. */
  function drag(e: PointerEvent<HTMLElement>, compute: (days: number) => DateMove) {
    if (!canEdit || e.button !== 0) return;
    e.preventDefault();
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const x0 = e.clientX;
    let moved = 0;
    const onMove = (ev: globalThis.PointerEvent) => {
      moved = daysIn(scale, ev.clientX - x0);
      setPreview(compute(moved));
    };
    const onUp = (ev: globalThis.PointerEvent) => {
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
      if (ev.type === 'pointerup' && moved !== 0) void commit(compute(moved));
      else setPreview(null);
    };
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onUp);
  }

  return (
    <section className="roadmap" aria-label="Timeline">
      <div className="roadmap-bar">
        <fieldset className="roadmap-zoom">
          <legend className="sr-only">Zoom</legend>
          {ZOOMS.map((z) => (
            <label key={z} className={`chip toggle${z === zoom ? ' on' : ''}`}>
              <input
                type="radio"
                name="roadmap-zoom"
                checked={z === zoom}
                onChange={() => onChange({ zoom: z, grouping })}
              />
              {ZOOM_NAME[z]}
            </label>
          ))}
        </fieldset>
        <SelectField
          label="Group by"
          value={grouping}
          onChange={(e) => onChange({ zoom, grouping: e.target.value as Grouping })}
        >
          {GROUPINGS.map((g) => (
            <option key={g} value={g}>
              {GROUP_NAME[g]}
            </option>
          ))}
        </SelectField>
        <Button variant="ghost" onClick={toToday}>
          Today
        </Button>
      </div>
      <p id="roadmap-keys" className="muted small">
        {canEdit
          ? 'Drag a bar to move a project, its ends to change its start or target, a diamond to move a milestone. On a focused bar: ← → move it a day, Shift+← → change the target, Alt+← → the start.'
          : 'Read only: guests see the timeline but cannot move dates.'}
      </p>
      <ErrorMessage error={save.error} />
      <div className="sr-only" role="status" aria-live="polite">
        {said}
      </div>
      {rows.length === 0 ? (
        <p className="muted">No project has both a start and a target date yet.</p>
      ) : (
        <div
          ref={scroller}
          className="roadmap-scroll"
          onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
        >
          <div className="roadmap-canvas" style={{ width: `calc(var(--rm-name-w) + ${width}px)` }}>
            <Axis zoom={zoom} scale={scale} todayDay={today0} />
            <span className="rm-today" style={{ left: `calc(var(--rm-name-w) + ${xOf(scale, today0)}px)` }} />
            <ul
              aria-label="Projects by date"
              className="roadmap-rows"
              style={{ height: rows.length * ROW_H }}
            >
              {rows.slice(first, last).map((r, i) => (
                <RowView
                  key={r.key}
                  row={r.kind === 'project' ? { ...r, project: shown(r.project) } : r}
                  top={(first + i) * ROW_H}
                  scale={scale}
                  width={width}
                  canEdit={canEdit}
                  drag={drag}
                  nudge={nudge}
                  flush={flush}
                />
              ))}
            </ul>
          </div>
        </div>
      )}
      <Undated projects={undated} canEdit={canEdit} schedule={(m) => void commit(m)} todayDay={today0} />
    </section>
  );
}

function Axis({ zoom, scale, todayDay }: { zoom: Zoom; scale: Scale; todayDay: number }) {
  const ticks = ticksOf(zoom, scale);
  return (
    <div className="roadmap-axis" aria-hidden="true">
      <div className="rm-name rm-corner" />
      <div className="rm-track">
        {ticks.map((t, i) => {
          const iso = isoOf(t.day);
          const label =
            zoom === 'week'
              ? shortDate(iso)
              : zoom === 'quarter'
                ? t.major
                  ? quarterLabel(iso)
                  : ''
                : monthLabel(iso, i === 0 || iso.slice(5, 7) === '01');
          return (
            <span
              key={t.day}
              className={`rm-tick${t.major ? ' major' : ''}`}
              data-day={iso}
              style={{ left: xOf(scale, t.day) }}
            >
              {label}
            </span>
          );
        })}
        <span className="rm-today-label" style={{ left: xOf(scale, todayDay) }}>
          Today
        </span>
      </div>
    </div>
  );
}

interface RowProps {
  row: Row;
  top: number;
  scale: Scale;
  width: number;
  canEdit: boolean;
  drag: (e: PointerEvent<HTMLElement>, compute: (days: number) => DateMove) => void;
  nudge: (move: DateMove) => void;
  flush: () => void;
}

function RowView({ row, top, scale, width, canEdit, drag, nudge, flush }: RowProps) {
  if (row.kind === 'group')
    return (
      <li className="rm-row rm-group" style={{ top }}>
        <h3 className="rm-name">
          {row.label} <span className="muted small">{row.count}</span>
        </h3>
      </li>
    );
  const p = row.project;
  const start = dayOf(p.startDate as string);
  const target = dayOf(p.targetDate as string);
  const move = (s: number, t: number): DateMove => ({
    kind: 'project',
    id: p.id,
    startDate: isoOf(s),
    targetDate: isoOf(t),
  });
  const byEdge: Record<Edge, (d: number) => DateMove> = {
    move: (d) => move(start + d, target + d),
    start: (d) => move(Math.min(start + d, target), target),
    end: (d) => move(start, Math.max(target + d, start)),
  };
  const health = p.health ? (HEALTH[p.health] ?? p.health) : 'No update';
  const label = `${p.name}: ${fullDate(p.startDate as string)} to ${fullDate(p.targetDate as string)}, ${health}`;
  const left = xOf(scale, start);
  const barWidth = xOf(scale, target + 1) - left;
  const className = `rm-bar${p.health ? ` health-${p.health}` : ''}`;

  return (
    <li className="rm-row" style={{ top }} data-project={p.id}>
      <div className="rm-name">
        <Link to="/projects/$id" params={{ id: p.id }}>
          {p.name}
        </Link>
      </div>
      <div className="rm-track" style={{ width }}>
        {canEdit ? (
          <button
            type="button"
            className={className}
            style={{ left, width: barWidth }}
            aria-label={label}
            aria-describedby="roadmap-keys"
            data-start={p.startDate}
            data-target={p.targetDate}
            onPointerDown={(e) => {
              const edge = ((e.target as HTMLElement).dataset['edge'] as Edge | undefined) ?? 'move';
              drag(e, byEdge[edge]);
            }}
            onBlur={flush}
            onKeyDown={(e) => {
              const key = PROJECT_KEYS.find(([id]) => pressed(e, id));
              if (!key) return;
              e.preventDefault();
              nudge(byEdge[key[1]](key[2]));
            }}
          >
            <span className="rm-handle" data-edge="start" />
            <span className="rm-health">{health}</span>
            <span className="rm-handle" data-edge="end" />
          </button>
        ) : (
          <div
            className={className}
            role="img"
            aria-label={label}
            style={{ left, width: barWidth }}
            data-start={p.startDate}
            data-target={p.targetDate}
          >
            <span className="rm-health">{health}</span>
          </div>
        )}
        {p.milestones.map((m) => {
          if (!m.targetDate) return null;
          const day = dayOf(m.targetDate);
          const at = (d: number): DateMove => ({
            kind: 'milestone',
            id: m.id,
            projectId: p.id,
            targetDate: isoOf(day + d),
          });
          const mLabel = `Milestone ${m.name} of ${p.name}: ${fullDate(m.targetDate)}`;
          const style = { left: xOf(scale, day) + scale.pxPerDay / 2 };
          return canEdit ? (
            <button
              key={m.id}
              type="button"
              className="rm-milestone"
              style={style}
              aria-label={mLabel}
              title={mLabel}
              data-target={m.targetDate}
              onPointerDown={(e) => drag(e, at)}
              onBlur={flush}
              onKeyDown={(e) => {
                const d = pressed(e, 'timeline.later') ? 1 : pressed(e, 'timeline.earlier') ? -1 : 0;
                if (!d) return;
                e.preventDefault();
                nudge(at(d));
              }}
            />
          ) : (
            <span
              key={m.id}
              className="rm-milestone"
              role="img"
              aria-label={mLabel}
              title={mLabel}
              style={style}
            />
          );
        })}
      </div>
    </li>
  );
}

/** Projects lacking a start or a target date: listed, and schedulable in one click. */
function Undated({
  projects,
  canEdit,
  schedule,
  todayDay,
}: {
  projects: RoadmapProject[];
  canEdit: boolean;
  schedule: (m: DateMove) => void;
  todayDay: number;
}) {
  if (projects.length === 0) return null;
  return (
    <section className="roadmap-undated" aria-labelledby="undated-h">
      <h2 id="undated-h">Not on the timeline ({projects.length})</h2>
      <ul>
        {projects.map((p) => {
          const has = p.targetDate
            ? `Target ${shortDate(p.targetDate)}, no start date`
            : p.startDate
              ? `Starts ${shortDate(p.startDate)}, no target date`
              : 'No dates';
          // Two weeks, around the date it has, or from today.
          const start = p.startDate ? dayOf(p.startDate) : p.targetDate ? dayOf(p.targetDate) - 13 : todayDay;
          const target = p.targetDate ? dayOf(p.targetDate) : start + 13;
          return (
            <li key={p.id}>
              <Link to="/projects/$id" params={{ id: p.id }}>
                {p.name}
              </Link>{' '}
              <span className="muted small">{has}</span>
              {canEdit && (
                <Button
                  variant="ghost"
                  aria-label={`Schedule ${p.name}`}
                  onClick={() =>
                    schedule({
                      kind: 'project',
                      id: p.id,
                      startDate: isoOf(start),
                      targetDate: isoOf(target),
                    })
                  }
                >
                  Schedule
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** What a move does, as the screen reader hears it. */
function describe(move: DateMove, projects: readonly RoadmapProject[]): string {
  const p = projects.find((x) => x.id === (move.kind === 'project' ? move.id : move.projectId));
  if (move.kind === 'project')
    return `${p?.name ?? 'Project'}: ${fullDate(move.startDate)} to ${fullDate(move.targetDate)}`;
  const m = p?.milestones.find((x) => x.id === move.id);
  return `Milestone ${m?.name ?? ''}: ${fullDate(move.targetDate)}`;
}
