// Input schemas of workflow states: REST validates bodies with them, and the
// service checks the same schemas again so GraphQL callers get the same rules.
import { type Static, Type } from 'typebox';
import { OneLineText } from '../../platform/http/schemas.js';

export { checkInput } from '../issues/inputs.js';

const STATE_TYPES = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;

const Name = OneLineText(100);
const Color = Type.String({ format: 'hexcolor', description: '#rrggbb' });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const Position = Type.Number({
  minimum: -1e9,
  maximum: 1e9,
  description: 'Order within the team, lowest first',
});

export const StateCreateBody = Type.Object(
  {
    teamId: Type.String({ minLength: 1, maxLength: 100, description: 'Team id or key' }),
    name: Name,
    color: Color,
    type: Type.Union(
      STATE_TYPES.map((t) => Type.Literal(t)),
      { description: STATE_TYPES.join(', ') },
    ),
    description: Type.Optional(Description),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);

export const StatePatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    description: Type.Optional(Description),
    position: Type.Optional(Position),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ArchiveBody = Type.Object(
  {
    replacementStateId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Where the state's issues go: a live state of the same team",
      }),
    ),
  },
  { additionalProperties: false },
);

export type StateCreateInput = Static<typeof StateCreateBody>;
export type StateUpdateInput = Static<typeof StatePatchBody>;
export type ArchiveInput = Static<typeof ArchiveBody>;
