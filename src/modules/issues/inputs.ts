// Input schemas of issues: REST validates bodies with them, and the service
// checks the same schemas again so GraphQL callers get identical rules.
import { type TSchema, Type } from 'typebox';
import type { AppError } from '../../platform/errors.js';
import { OneLineText } from '../../platform/http/schemas.js';
import { fromAjvErrors, validatorCompiler } from '../../platform/http/validation.js';

const Id = Type.String({ format: 'uuid' });
const NullableId = Type.Union([Id, Type.Null()]);

export const Title = OneLineText(512);
const Description = Type.Union([Type.String({ maxLength: 200_000 }), Type.Null()], {
  description: 'Markdown',
});
const Priority = Type.Integer({
  minimum: 0,
  maximum: 4,
  description: '0 none, 1 urgent, 2 high, 3 medium, 4 low',
});
const Estimate = Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()]);
const DueDate = Type.Union([Type.String({ format: 'date', description: 'YYYY-MM-DD' }), Type.Null()]);
const LabelIds = Type.Array(Id, { maxItems: 100 });
const SortOrder = Type.Number({ minimum: -1e15, maximum: 1e15 });
const TeamRef = Type.String({ minLength: 1, maxLength: 100, description: 'Team id or key (e.g. ENG)' });
const ParentRef = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
  description: 'Parent issue id or identifier',
});

const fields = {
  teamId: Type.Optional(TeamRef),
  description: Type.Optional(Description),
  priority: Type.Optional(Priority),
  estimate: Type.Optional(Estimate),
  dueDate: Type.Optional(DueDate),
  stateId: Type.Optional(Id),
  assigneeId: Type.Optional(NullableId),
  projectId: Type.Optional(NullableId),
  projectMilestoneId: Type.Optional(NullableId),
  cycleId: Type.Optional(NullableId),
  parentId: Type.Optional(ParentRef),
  labelIds: Type.Optional(LabelIds),
  sortOrder: Type.Optional(SortOrder),
};

/** A client-chosen id makes sending the same create again harmless (client-ids/claim.ts). */
const ClientId = Type.Union([Id, Type.Null()], {
  description:
    "The new issue's id (a UUID, chosen by the client); the same create sent again by its creator answers the issue it made. Absent or null: the server chooses",
});

export const IssueCreateBody = Type.Object(
  { title: Title, id: Type.Optional(ClientId), ...fields },
  { additionalProperties: false },
);
/** The triage snooze (docs/triage.md): only changes set it. */
const snooze = {
  snoozedUntilAt: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "Hide the issue from its team's triage queue until then; null wakes it",
    }),
  ),
  snoozedById: Type.Optional(
    Type.Union([Id, Type.Null()], {
      description: 'Who snoozed it; defaults to you when snoozedUntilAt is set',
    }),
  ),
};

export const IssuePatchBody = Type.Object(
  { title: Type.Optional(Title), ...fields, ...snooze },
  { additionalProperties: false, minProperties: 1 },
);

export interface IssueCreateInput {
  /** The id the client chose for the issue (client-ids/claim.ts); null or absent: the server chooses. */
  id?: string | null;
  title: string;
  /** Team id or key; defaults to the oldest team. */
  teamId?: string;
  description?: string | null;
  priority?: number;
  estimate?: number | null;
  dueDate?: string | null;
  /** Defaults to the team's first backlog state. */
  stateId?: string;
  assigneeId?: string | null;
  projectId?: string | null;
  /** A milestone of the project; without projectId it also sets the project (milestones/issue-link.ts). */
  projectMilestoneId?: string | null;
  cycleId?: string | null;
  /** Parent issue id or identifier. */
  parentId?: string | null;
  labelIds?: string[];
  sortOrder?: number;
}

/** Partial: absent fields stay; null clears an optional field; labelIds replaces the set. */
export type IssueUpdateInput = Partial<Omit<IssueCreateInput, 'id'>> & {
  /** ISO date-time; null wakes the issue. Leaving triage wakes it too. */
  snoozedUntilAt?: string | null;
  /** Defaults to the caller when snoozedUntilAt is set; cleared with it. */
  snoozedById?: string | null;
};

const compiled = new Map<TSchema, (v: unknown) => boolean>();

/** Throws 400 VALIDATION_FAILED when input does not match the schema (as REST would). */
export function checkInput(schema: TSchema, input: unknown): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as (
      v: unknown,
    ) => boolean;
    compiled.set(schema, validate);
  }
  if (!validate(input)) {
    const errs = (validate as unknown as { errors?: Parameters<typeof fromAjvErrors>[0] }).errors ?? [];
    throw fromAjvErrors(errs, 'body') as AppError;
  }
}
