export function AdminWebhooks() {
  return <div className="page">Webhooks</div>;
}
