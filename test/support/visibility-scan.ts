// Finds the strings a role may not see anywhere in an answer: ids, aliases
// (identifiers, team keys, project slugs, e-mails) and the marker words of
// secret teams, in values and in object keys, whatever the field is called.
import assert from 'node:assert/strict';
import type { Role, World } from './visibility-fixture.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export interface Secrets {
  /** Lower-cased token → what it names. */
  tokens: Map<string, string>;
  /** Tokens with characters the splitter cuts at (e-mails): matched as substrings. */
  loose: [string, string][];
}

export function secretsOf(world: World, role: Role): Secrets {
  const tokens = new Map<string, string>();
  for (const r of world.records) {
    if (world.visible[role].has(r.id)) continue;
    for (const s of [r.id, ...r.aliases]) tokens.set(s.toLowerCase(), r.label);
  }
  for (const w of world.secretWords[role]) tokens.set(w, `word "${w}" of a secret team`);
  const loose = [...tokens].filter(([k]) => /[^a-z0-9-]/.test(k));
  for (const [k] of loose) tokens.delete(k);
  return { tokens, loose };
}

/** Every secret named in `value`, with where it first shows: "issue PRV-1 (2cf476ad-65da…, prv-1) at r.parent.id". */
export function leaks(value: unknown, s: Secrets): string[] {
  const found = new Map<string, { tokens: Set<string>; at: string }>();
  const check = (text: string, at: string) => {
    const lower = text.toLowerCase();
    const hits = [...lower.split(/[^a-z0-9-]+/), ...(lower.match(UUID) ?? [])].flatMap((token) => {
      const what = s.tokens.get(token);
      return what ? [[token, what] as const] : [];
    });
    for (const [token, what] of [...hits, ...s.loose.filter(([token]) => lower.includes(token))]) {
      const entry = found.get(what) ?? { tokens: new Set<string>(), at };
      entry.tokens.add(token.length > 20 ? `${token.slice(0, 13)}…` : token);
      found.set(what, entry);
    }
  };
  const walk = (v: unknown, at: string): void => {
    if (typeof v === 'string') check(v, at);
    else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${at}[${i}]`);
    } else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        check(k, at);
        walk(x, at ? `${at}.${k}` : k);
      }
  };
  walk(value, '');
  return [...found].map(([what, e]) => `${what} (${[...e.tokens].join(', ')}) at ${e.at || 'top'}`);
}

/** Collects failures of one area and fails once, listing them (the first ones in full). */
export class Findings {
  readonly lines: string[] = [];
  add(line: string) {
    this.lines.push(line);
  }
  leak(where: string, role: Role, value: unknown, s: Secrets) {
    const found = leaks(value, s);
    const more = found.length > 4 ? `; and ${found.length - 4} more` : '';
    if (found.length) this.add(`${where} as ${role} leaks ${found.slice(0, 4).join('; ')}${more}`);
  }
  assertNone(what: string) {
    const shown = this.lines.slice(0, 80).join('\n  ');
    const more = this.lines.length > 80 ? `\n  ... and ${this.lines.length - 80} more` : '';
    assert.equal(this.lines.length, 0, `${what}: ${this.lines.length} failures\n  ${shown}${more}`);
  }
}
