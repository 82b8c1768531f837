// Password hashing with argon2id (OWASP's recommended parameters), through
// the process's bounded hash slots (hash-slots.ts).
import { hash, verify } from '@node-rs/argon2';
import { hashSlots } from './hash-slots.js';

export const PASSWORD_HASH = {
  algorithm: 2 /* argon2id */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const MIN_PASSWORD_LENGTH = 6;

export function hashPassword(password: string): Promise<string> {
  return hashSlots.run('new', () => hash(password, PASSWORD_HASH));
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await hashSlots.run('check', () => verify(stored, password));
  } catch {
    return false;
  }
}

// Checked against when an email is unknown, so a miss costs as much as a hit
// and response times do not reveal which emails have accounts.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('trackway-timing-equaliser');
  await verifyPassword(await dummy, password);
}
