export function BoardPage() {
  return <div className="page">Board</div>;
}
