export function IssuePage({ id }: { id: string }) {
  return <div className="page">{id}</div>;
}
