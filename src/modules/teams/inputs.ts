// Input schemas of teams and memberships: REST validates bodies with them, and
// the service checks the same schemas again so GraphQL callers get the same rules.
import { type Static, Type } from 'typebox';
import { OneLineText } from '../../platform/http/schemas.js';

export { checkInput } from '../issues/inputs.js';

const SortOrder = Type.Number({ minimum: -1e12, maximum: 1e12 });
const Name = OneLineText(100);
const Key = Type.String({
  pattern: '^[A-Z][A-Z0-9]{0,6}$',
  description: 'e.g. ENG; prefixes issue identifiers. Unique, and a key a team ever held stays with it',
});
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const Color = Type.Union([Type.String({ format: 'hexcolor', description: '#rrggbb' }), Type.Null()]);
const Icon = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);
const Timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name, e.g. Europe/Paris (default UTC)',
});

const teamFields = {
  description: Type.Optional(Description),
  color: Type.Optional(Color),
  icon: Type.Optional(Icon),
  private: Type.Optional(Type.Boolean({ description: 'Private teams are not joined automatically' })),
  timezone: Type.Optional(Timezone),
  cyclesEnabled: Type.Optional(Type.Boolean()),
  triageEnabled: Type.Optional(
    Type.Boolean({
      description:
        'Issues created by people outside the team and by apps land in its triage state (docs/triage.md)',
    }),
  ),
};

export const TeamCreateBody = Type.Object(
  { key: Key, name: Name, ...teamFields },
  { additionalProperties: false },
);

export const TeamPatchBody = Type.Object(
  { key: Type.Optional(Key), name: Type.Optional(Name), ...teamFields },
  { additionalProperties: false, minProperties: 1 },
);

/** Create: the key may be left out by GraphQL callers; it is then derived from the name. */
export type TeamCreateInput = Omit<Static<typeof TeamCreateBody>, 'key'> & { key?: string };
export type TeamUpdateInput = Static<typeof TeamPatchBody>;

export const MembershipBody = Type.Object(
  {
    userId: Type.String({ format: 'uuid' }),
    owner: Type.Optional(Type.Boolean()),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export type MembershipInput = Static<typeof MembershipBody>;

export const MembershipPatchBody = Type.Object(
  {
    owner: Type.Optional(Type.Boolean()),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type MembershipUpdateInput = Static<typeof MembershipPatchBody>;
