// Webhook delivery: the worker's head-of-line lookup and manual re-queues.
export const name = 'webhook_delivery';

export const up = /* sql */ `
-- The oldest unfinished delivery of each endpoint, found by one index probe per endpoint.
create index webhook_deliveries_unfinished on webhook_deliveries (webhook_id, event_id)
  where status in ('pending', 'delivering');

-- Attempts made before the current retry schedule began: a manual redelivery
-- starts a fresh schedule while the attempt count (and log) keeps growing.
alter table webhook_deliveries add column retry_offset integer not null default 0;
`;
