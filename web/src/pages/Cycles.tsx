export function CyclesPage() {
  return <div className="page">Cycles</div>;
}
