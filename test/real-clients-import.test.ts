// @linear/import (the third-party tracker's own importer CLI, on @linear/sdk 95)
// run unmodified against the test server: a Linear CSV export and a Jira CSV
// export imported into team ENG. Batch mode (LINEAR_API_KEY, --importer,
// --team) still asks for the file in an interactive file browser, so each run
// gets a directory holding only its CSV and the test presses Enter on it.
// Results are read back through our own @linear/sdk client; a document the
// server refuses fails the import (support/real-clients.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { assertAccepted, Capture, keepDocuments, runCli } from './support/real-clients.js';

const CLIENT = 'linear-import';
const CLI = 'node_modules/@linear/import/bin/linear-import.cjs';

let t: TestApp;
let base: string;
let key: string;
let sdk: LinearClient;
let capture: Capture;

before(async () => {
  ({ t, base, key, client: sdk } = await startGraphqlApp());
  capture = new Capture(CLIENT);
});

after(async () => {
  if (capture) {
    keepDocuments(CLIENT, capture.all);
    capture.close();
  }
  await t?.close();
});

/** Runs one import of `csv` (as `file`) with the importer's own prompts answered. */
async function importCsv(
  step: string,
  importer: string,
  file: string,
  csv: string,
  answers: { prompt: string; text: string }[] = [],
) {
  const dir = path.join(capture.dir, importer);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, file), csv);
  const run = await runCli(capture, base, CLI, ['--importer', importer, '--team', 'ENG'], {
    cwd: dir,
    env: { LINEAR_API_KEY: key, FORCE_COLOR: '0' },
    // The file browser lists the directory, its only file first: Enter picks it.
    answers: [{ prompt: 'Select your exported CSV file', text: '\n' }, ...answers],
  });
  assertAccepted(capture.take(step), step);
  assert.equal(run.code, 0, `${importer} exited with ${run.code}:\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /issues imported to your team/);
}

/** The issues of team ENG with the fields an import sets, by title. */
async function imported(prefix: string) {
  const issues = await sdk.issues({ filter: { title: { startsWith: prefix } }, first: 50 });
  const rows = await Promise.all(
    issues.nodes.map(async (i) => ({
      title: i.title,
      description: i.description ?? null,
      priority: i.priority,
      state: (await i.state)?.name,
      labels: (await i.labels()).nodes.map((l) => l.name).sort(),
      estimate: i.estimate ?? null,
      completed: Boolean(i.completedAt),
    })),
  );
  return rows.sort((a, b) => a.title.localeCompare(b.title));
}

describe(`${CLIENT} CLI`, () => {
  // The archived row (OLD-5) is left out by the importer itself.
  test('imports a Linear CSV export: states (one of them new), labels (one new), priorities', async () => {
    const csv = [
      'ID,Title,Description,Status,Priority,Assignee,Labels,Estimate,Created,Completed,Archived',
      'OLD-1,Imported: sign-up form,"Form **fields** lost on reload",Todo,High,,Bug,3,2024-01-02T10:00:00.000Z,,',
      'OLD-2,Imported: dark mode,,In Progress,Urgent,,"Feature, Customer request",,2024-01-03T10:00:00.000Z,,',
      'OLD-3,Imported: old crash,Fixed long ago,Done,Low,,,,2024-01-04T10:00:00.000Z,2024-02-01T10:00:00.000Z,',
      'OLD-4,Imported: needs a decision,,Waiting for input,No priority,,,,2024-01-05T10:00:00.000Z,,',
      'OLD-5,Imported: archived one,,Todo,Low,,,,2024-01-06T10:00:00.000Z,,2024-03-01T10:00:00.000Z',
    ].join('\n');
    await importCsv('import Linear CSV', 'linearCsv', 'linear-export.csv', `${csv}\n`);
    assert.deepEqual(await imported('Imported: '), [
      {
        title: 'Imported: dark mode',
        description: null,
        priority: 1,
        state: 'In Progress',
        labels: ['Customer request', 'Feature'],
        estimate: null,
        completed: false,
      },
      {
        title: 'Imported: needs a decision',
        description: null,
        priority: 0,
        // A status the team lacks is created (as a backlog state) by the importer.
        state: 'Waiting for input',
        labels: [],
        estimate: null,
        completed: false,
      },
      {
        title: 'Imported: old crash',
        description: 'Fixed long ago',
        priority: 4,
        state: 'Done',
        labels: [],
        estimate: null,
        completed: true,
      },
      {
        title: 'Imported: sign-up form',
        description: 'Form **fields** lost on reload',
        priority: 2,
        state: 'Todo',
        labels: ['Bug'],
        estimate: 3,
        completed: false,
      },
    ]);
  });

  test('imports a Jira CSV export: type and release as labels, a link back to Jira', async () => {
    const csv = [
      'Summary,Issue key,Issue id,Issue Type,Status,Priority,Assignee,Description,Release',
      // Jira's *strong* is Markdown's **strong**.
      'Jira: payment fails,PAY-7,10007,Bug,In Progress,Highest,,"Card is *declined* twice",2.4',
      'Jira: add invoices,PAY-8,10008,Story,Backlog,Medium,,,',
    ].join('\n');
    await importCsv('import Jira CSV', 'jiraCsv', 'jira-export.csv', `${csv}\n`, [
      { prompt: 'Is your Jira installation on Jira Cloud', text: 'y\n' },
      { prompt: 'Input the URL of your Jira Cloud installation', text: 'https://acme.atlassian.net\n' },
    ]);
    const rows = await imported('Jira: ');
    assert.deepEqual(
      rows.map((r) => [r.title, r.priority, r.state, r.labels]),
      [
        ['Jira: add invoices', 3, 'Backlog', ['Type: Story']],
        ['Jira: payment fails', 1, 'In Progress', ['Release: 2.4', 'Type: Bug']],
      ],
    );
    // Converted by the importer: Jira's *strong* is Markdown's **strong**.
    assert.equal(
      rows[1]!.description,
      'Card is **declined** twice\n\n[View original issue in Jira](https://acme.atlassian.net/browse/PAY-7)',
    );
  });
});
