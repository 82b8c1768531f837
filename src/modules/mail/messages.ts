// What each queued message says, built when it is sent (so that a digest
// reflects who may still read what). Plain text: readable everywhere, nothing
// to escape, nothing remote to load.
import type { SendMailOptions } from 'nodemailer';
import type { AppContext } from '../../platform/context.js';
import { toOneLine } from '../../platform/one-line.js';
import { unseal } from '../../platform/sealed.js';
import { buildDigest, unsubscribeUrl } from './digest.js';
import type { ClaimedMail } from './queries.js';

export const SEALING_PURPOSE = 'mail-payload';

/** Stable per queue row: a copy sent again after a crash carries the same id. */
export function messageId(ctx: AppContext, mailId: string): string {
  return `<${mailId}@${new URL(ctx.config.publicUrl).hostname || 'trackway'}>`;
}

export async function buildMessage(
  ctx: AppContext,
  job: ClaimedMail,
): Promise<SendMailOptions | { drop: string }> {
  const base = {
    from: ctx.config.mail!.from,
    messageId: messageId(ctx, job.id),
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
  if (job.kind === 'password_reset') {
    const sealed = (job.payload as { link?: unknown }).link;
    const link = typeof sealed === 'string' ? unseal(ctx.deriveKey(SEALING_PURPOSE), sealed) : null;
    if (!link) return { drop: 'reset link cannot be unsealed (secret changed?)' };
    return {
      ...base,
      to: job.to_address,
      subject: 'Reset your Trackway password',
      text: [
        'Someone (hopefully you) asked to reset the password of your Trackway account.',
        '',
        `Choose a new password here (the link works once, for one hour): ${link}`,
        '',
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n'),
    };
  }
  if (!job.to_user_id) return { drop: 'digest without a recipient' };
  const digest = await buildDigest(ctx, job.id, job.to_user_id);
  if ('drop' in digest) return digest;
  const unsubscribe = unsubscribeUrl(ctx, job.to_user_id);
  const n = digest.lines.length;
  // Titles and lines are one line each, also when stored before titles were
  // checked (issue 24, finding 8): a line break in one must not lay out the
  // rest of the mail (a forged "--" signature, a phishing line).
  const line = (text: string) => toOneLine(text).trim();
  return {
    ...base,
    to: digest.to,
    // One line of text, whatever the caller's text held.
    subject:
      n === 1 ? `[Trackway] ${line(digest.lines[0]!.text).replace(/\s+/g, ' ')}` : `[Trackway] ${n} updates`,
    // RFC 8058 one-click: the mail client POSTs "List-Unsubscribe=One-Click" to the URL.
    list: { unsubscribe: { url: unsubscribe, comment: 'Unsubscribe' } },
    headers: { ...base.headers, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    text: [
      ...digest.lines.map(
        (l) =>
          `${line(l.text)}\n  ${l.identifier === null ? '' : `${l.identifier} `}${line(l.title)}\n  ${l.url}\n`,
      ),
      '--',
      `Stop these emails: ${unsubscribe}`,
      `(or turn them off in Trackway: PATCH ${ctx.config.publicUrl}/api/me/preferences)`,
    ].join('\n'),
  };
}
