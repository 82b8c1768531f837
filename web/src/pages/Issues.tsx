export function IssuesPage() {
  return <div className="page">Issues</div>;
}
