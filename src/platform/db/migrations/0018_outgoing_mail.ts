// Outgoing email (docs/email.md). outgoing_mail is the durable queue: a row is
// written in the same transaction as what causes it and sent by the mail
// worker (modules/mail/worker.ts) with leases and retries, like webhook
// deliveries. mail_notification_items wait there until the user's digest is
// composed (mail_id set). password_reset_tokens keep only a hash of each
// token. users.email_notifications is the one-click unsubscribe's switch.
// (0017 is taken by in-app notifications, on another branch.)
export const name = 'outgoing_mail';

export const up = /* sql */ `
create table outgoing_mail (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('password_reset', 'notification_digest')),
  to_user_id uuid references users (id),
  to_address text not null,
  -- What the message is built from at send time; secrets in it are encrypted,
  -- and it is emptied once the message is sent.
  payload jsonb not null default '{}'::jsonb,
  -- At most one message per key (null: no deduplication).
  dedupe_key text unique,
  status text not null default 'pending'
    check (status in ('pending', 'sending', 'sent', 'failed', 'dropped')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  sent_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The worker's claim: due rows, oldest first.
create index outgoing_mail_due on outgoing_mail (next_attempt_at) where status in ('pending', 'sending');
create index outgoing_mail_user on outgoing_mail (to_user_id, created_at);

create table mail_notification_items (
  id bigint generated always as identity primary key,
  user_id uuid not null references users (id),
  issue_id uuid not null references issues (id) on delete cascade,
  kind text not null,
  text text not null,
  actor_id uuid references users (id),
  created_at timestamptz not null default now(),
  -- The digest that carries it; null while it waits.
  mail_id uuid references outgoing_mail (id) on delete set null
);
create index mail_notification_items_waiting on mail_notification_items (user_id, created_at) where mail_id is null;
create index mail_notification_items_mail on mail_notification_items (mail_id);

create table password_reset_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user on password_reset_tokens (user_id);

alter table users add column email_notifications boolean not null default true;
`;
