// GET /graphql: a small self-contained query console (no external resources).
// It keeps the API key in this browser's localStorage and POSTs to /graphql.
export const consolePage = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trackway GraphQL console</title>
<style>
  :root { font-family: system-ui, sans-serif; color-scheme: light dark; }
  body { margin: 0; display: grid; grid-template-rows: auto 1fr; height: 100vh; }
  header { display: flex; gap: .5rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid #8884; }
  header h1 { font-size: 1rem; margin: 0 1rem 0 0; }
  header input { flex: 1; max-width: 28rem; }
  main { display: grid; grid-template-columns: 1fr 1fr; min-height: 0; }
  section { display: grid; grid-template-rows: 2fr auto 1fr; min-height: 0; border-right: 1px solid #8884; }
  textarea, pre { margin: 0; padding: .75rem; font: 13px/1.4 ui-monospace, monospace; border: 0; resize: none; overflow: auto; }
  pre { white-space: pre-wrap; }
  label { font-size: .8rem; padding: .25rem .75rem; border-top: 1px solid #8884; }
  button { font: inherit; padding: .3rem .9rem; }
  #status { font-size: .8rem; opacity: .7; }
</style>
</head>
<body>
<header>
  <h1>GraphQL console</h1>
  <input id="key" type="password" placeholder="API key, or Bearer token" autocomplete="off" aria-label="Credentials">
  <button id="run" title="Ctrl+Enter">Run</button>
  <span id="status"></span>
</header>
<main>
  <section>
    <textarea id="query" spellcheck="false" aria-label="Query">query {
  viewer { id name email }
  issues(first: 10) { nodes { identifier title state { name } assignee { name } } }
}</textarea>
    <label for="variables">Variables (JSON)</label>
    <textarea id="variables" spellcheck="false">{}</textarea>
  </section>
  <pre id="result" aria-live="polite"></pre>
</main>
<script>
  const $ = (id) => document.getElementById(id);
  $('key').value = localStorage.getItem('trackway.graphql.key') || '';
  $('query').value = localStorage.getItem('trackway.graphql.query') || $('query').value;
  async function run() {
    const key = $('key').value.trim();
    localStorage.setItem('trackway.graphql.key', key);
    localStorage.setItem('trackway.graphql.query', $('query').value);
    let variables;
    try { variables = JSON.parse($('variables').value || '{}'); }
    catch { $('result').textContent = 'Variables are not valid JSON'; return; }
    $('status').textContent = 'running...';
    const started = performance.now();
    const res = await fetch(location.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: key } : {}) },
      body: JSON.stringify({ query: $('query').value, variables }),
    });
    const text = await res.text();
    try { $('result').textContent = JSON.stringify(JSON.parse(text), null, 2); }
    catch { $('result').textContent = text; }
    $('status').textContent = 'HTTP ' + res.status + ' in ' + Math.round(performance.now() - started) +
      ' ms, cost ' + (res.headers.get('x-complexity') ?? '?');
  }
  $('run').onclick = run;
  document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) run(); });
</script>
</body>
</html>`;
