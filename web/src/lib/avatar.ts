// How a person looks where there is no picture: two initials on one of eight
// colours picked by their id, so that Ann Lee and Alex Ward differ at a glance
// (the first word's and the last word's first letters; one word gives one).
// Import-free, so the unit test and any page can use it.

/** Colour classes `.avatar.c0`…`.c7` (styles/layout.css), each with white text at 4.5:1 or more. */
export const AVATAR_COLOURS = 8;

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]!][0]!;
  const last = words.length > 1 ? [...words[words.length - 1]!][0]! : '';
  return (first + last).toUpperCase();
}

/** The same person always gets the same colour (FNV-1a of the id). */
export function avatarColour(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % AVATAR_COLOURS;
}
