// Marks a name as an OAuth app acting under its own name (actor=app,
// docs/agents.md "Apps as actors"), not a person.
export function AppMarker() {
  return (
    <span className="badge app-marker" title="An app acting under its own name">
      app
    </span>
  );
}
