// Progress of a group of issues (a project's, a cycle's or a milestone's), as
// every door presents it. What counts is written once, in SQL: fields.ts.
import { Type } from 'typebox';

export interface Progress {
  issueCount: number;
  completedIssueCount: number;
  startedIssueCount: number;
  /** completed / issueCount, 0 when there are no issues in scope. */
  progress: number;
}

export const ProgressSchema = Type.Object({
  issueCount: Type.Integer(),
  completedIssueCount: Type.Integer(),
  startedIssueCount: Type.Integer(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
});

export const emptyProgress = (): Progress => ({
  issueCount: 0,
  completedIssueCount: 0,
  startedIssueCount: 0,
  progress: 0,
});
