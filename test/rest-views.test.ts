// test-runner: any database
// Each REST shape is a view over the read model's declaration
// (platform/read/rest.ts): its keys must be its TypeBox schema's, in the
// schema's order (the OpenAPI document and the JSON text agree), and each key
// a field the entity declares (restView fails at load otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createQueryId, PostgresQueryCompiler } from 'kysely';
import { ATTACHMENT_VIEW, AttachmentSchema } from '../src/modules/attachments/present.js';
import { COMMENT_VIEW, CommentSchema } from '../src/modules/comments/present.js';
import { CYCLE_VIEW, CycleSchema } from '../src/modules/cycles/present.js';
import { FILE_VIEW, FileSchema } from '../src/modules/files/present.js';
import { ISSUE_VIEW, IssueSchema } from '../src/modules/issues/present.js';
import { LABEL_VIEW, LabelSchema } from '../src/modules/labels/present.js';
import { MILESTONE_VIEW, MilestoneSchema } from '../src/modules/milestones/present.js';
import { NOTIFICATION_VIEW, NotificationSchema } from '../src/modules/notifications/present.js';
import { PROJECT_VIEW, ProjectSchema } from '../src/modules/projects/present.js';
import { RELATION_VIEW, RelationSchema } from '../src/modules/relations/present.js';
import { STATE_VIEW, StateSchema } from '../src/modules/states/present.js';
import {
  MEMBER_VIEW,
  MEMBERSHIP_VIEW,
  MemberSchema,
  MembershipSchema,
  TEAM_LIST_VIEW,
  TEAM_VIEW,
  TeamListItemSchema,
  TeamSchema,
} from '../src/modules/teams/present.js';
import { USER_VIEW, UserSchema } from '../src/modules/users/present.js';
import { VIEW_VIEW, ViewSchema } from '../src/modules/views/present.js';
import {
  AttemptSchema,
  DELIVERY_VIEW,
  DeliverySchema,
  WEBHOOK_VIEW,
  WebhookSchema,
} from '../src/modules/webhooks/present.js';
import type { TeamAccess } from '../src/platform/access.js';
import { builtRowJson, rowJson } from '../src/platform/read/compile.js';
import { issue } from '../src/platform/read/entities.js';
import type { Sql } from '../src/platform/read/json.js';
import { restView } from '../src/platform/read/rest.js';

const VIEWS = [
  [ISSUE_VIEW, IssueSchema],
  [COMMENT_VIEW, CommentSchema],
  [LABEL_VIEW, LabelSchema],
  [STATE_VIEW, StateSchema],
  [TEAM_VIEW, TeamSchema],
  [TEAM_LIST_VIEW, TeamListItemSchema],
  [PROJECT_VIEW, ProjectSchema],
  [CYCLE_VIEW, CycleSchema],
  [MILESTONE_VIEW, MilestoneSchema],
  [ATTACHMENT_VIEW, AttachmentSchema],
  [RELATION_VIEW, RelationSchema],
  [VIEW_VIEW, ViewSchema],
  [NOTIFICATION_VIEW, NotificationSchema],
  [USER_VIEW, UserSchema],
  [MEMBERSHIP_VIEW, MembershipSchema],
  [MEMBER_VIEW, MemberSchema],
  [WEBHOOK_VIEW, WebhookSchema],
  [DELIVERY_VIEW, DeliverySchema],
  [FILE_VIEW, FileSchema],
] as const;

test("every REST view names its schema's keys in the schema's order", () => {
  for (const [view, schema] of VIEWS) {
    assert.deepEqual(
      view.select.map((s) => s.key),
      Object.keys(schema.properties),
      view.entity.name,
    );
  }
  // Nested rows too: a delivery's attempts and a member's user are their schemas' keys in order.
  const attempts = DELIVERY_VIEW.select.find((s) => s.key === 'attempts');
  assert.deepEqual(
    attempts && 'select' in attempts ? attempts.select?.map((s) => s.key) : undefined,
    Object.keys(AttemptSchema.properties),
  );
  const user = MEMBER_VIEW.select.find((s) => s.key === 'user');
  assert.deepEqual(
    user && 'select' in user ? user.select?.map((s) => s.key) : undefined,
    Object.keys(UserSchema.properties),
  );
});

test('a view of a field the declaration lacks fails when it is made', () => {
  assert.throws(() => restView(issue, { properties: { id: {}, notDeclared: {} } }), /notDeclared/);
  assert.throws(() => restView(issue, { properties: { comments: {} } }), /to-one relation/);
});

// A view's SQL is kept flat per caller (platform/read/flat.ts): it must be the
// very statement the view builds, for every kind of caller, and a view whose
// SQL reads the clock must be built again for each request.
test('the flat SQL kept for a view is the SQL it builds, for every kind of caller', () => {
  const compiler = new PostgresQueryCompiler();
  const print = (s: Sql) => {
    const { sql, parameters } = compiler.compileQuery(s.toOperationNode(), createQueryId());
    return { sql, parameters };
  };
  const user = '11111111-1111-4111-8111-111111111111';
  const callers: TeamAccess[] = [
    { all: true, userId: user },
    { all: false, userId: user, guest: false, teamIds: new Set(['22222222-2222-4222-8222-222222222222']) },
    { all: false, userId: user, guest: true, teamIds: new Set() },
  ];
  for (const [view] of VIEWS) {
    // Webhooks and their log are read by admins alone (the routes refuse anyone else first).
    for (const access of view.entity.adminOnly ? callers.filter((a) => a.all) : callers) {
      const c = { access, viewerId: user, publicUrl: 'https://t.example', now: new Date(0) };
      const direct = print(builtRowJson(view.entity, 'r', view.select, c));
      const kept = print(rowJson(view.entity, 'r', view.select, c));
      const later = { ...c, now: new Date(86_400_000) };
      const again = print(rowJson(view.entity, 'r', view.select, later));
      assert.equal(kept.sql, direct.sql, view.entity.name);
      assert.deepEqual(kept.parameters, direct.parameters, view.entity.name);
      assert.deepEqual(again, print(builtRowJson(view.entity, 'r', view.select, later)), view.entity.name);
    }
  }
});
