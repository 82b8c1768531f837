// Mutations: each maps the GraphQL input onto the owning domain's service, so
// roles, feature flags, validation and change events are exactly those of REST.
// Payloads report success, the latest sync id and the record (or entityId).
import * as attachments from '../../modules/attachments/service.js';
import * as comments from '../../modules/comments/service.js';
import * as cycles from '../../modules/cycles/service.js';
import { createUploadGrant } from '../../modules/files/service.js';
import * as gitLinks from '../../modules/git/links.js';
import { checkBatchSize, createIssues, updateIssues } from '../../modules/issues/batch.js';
import * as issues from '../../modules/issues/service.js';
import * as labels from '../../modules/labels/service.js';
import * as projects from '../../modules/projects/service.js';
import * as webhooks from '../../modules/webhooks/service.js';
import type { IssueRow } from '../../platform/db/tables.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import type { GqlContext } from '../context.js';
import {
  attachmentNode,
  commentNode,
  cycleNode,
  issueNode,
  labelNode,
  projectNode,
  resourceTypesIn,
  webhookNode,
} from '../nodes.js';
import { findIssueRow } from './lookups.js';

type Input = Record<string, unknown>;

/** Copies the listed keys that the caller actually sent (null included: it clears). */
function pick<K extends string>(input: Input, keys: readonly K[]): Partial<Record<K, never>> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k];
  return out as Partial<Record<K, never>>;
}

const payload = async (g: GqlContext, record: Record<string, unknown>) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  ...record,
});

const ISSUE_FIELDS = [
  'title',
  'teamId',
  'description',
  'priority',
  'estimate',
  'dueDate',
  'stateId',
  'assigneeId',
  'projectId',
  'projectMilestoneId',
  'cycleId',
  'parentId',
  'labelIds',
  'sortOrder',
  'snoozedUntilAt',
  'snoozedById',
] as const;

/** A create also takes the id the client chose (modules/client-ids/claim.ts). */
const ISSUE_CREATE_FIELDS = [...ISSUE_FIELDS, 'id'] as const;

const issueOut = (g: GqlContext, r: issues.IssueRecord) =>
  issueNode(r as unknown as IssueRow, g.app.config.publicUrl);

/** addedLabelIds/removedLabelIds adjust the current set; labelIds replaces it. */
async function labelPatch(g: GqlContext, id: string, input: Input): Promise<{ labelIds?: string[] }> {
  const added = input.addedLabelIds as string[] | undefined;
  const removed = input.removedLabelIds as string[] | undefined;
  if (!added && !removed) return {};
  const current = new Set(
    (input.labelIds as string[] | undefined) ??
      (await g.loaders.issueLabelIds.load((await findIssueRow(g, id)).id)),
  );
  for (const l of added ?? []) current.add(l);
  for (const l of removed ?? []) current.delete(l);
  return { labelIds: [...current] };
}

const PROJECT_FIELDS = [
  'name',
  'description',
  'content',
  'leadId',
  'memberIds',
  'teamIds',
  'startDate',
  'targetDate',
  'color',
  'icon',
  'sortOrder',
] as const;

/** Our project statuses are presented with their type as id, so statusId is a status. */
const projectStatus = (input: Input) =>
  input.statusId !== undefined && input.statusId !== null ? { status: input.statusId as never } : {};

export const mutationResolvers: ResolverMap = {
  Mutation: {
    issueCreate: async (_s, a: { input: Input }, g) => {
      const record = await issues.createIssue(g.app, g.actor, pick(a.input, ISSUE_CREATE_FIELDS) as never);
      return payload(g, { issue: issueOut(g, record) });
    },
    issueUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const patch = { ...pick(a.input, ISSUE_FIELDS), ...(await labelPatch(g, a.id, a.input)) };
      const record = await issues.updateIssue(g.app, g.actor, a.id, patch as never);
      return payload(g, { issue: issueOut(g, record) });
    },
    issueBatchCreate: async (_s, a: { input: { issues: Input[] } }, g) => {
      const inputs = a.input.issues.map((i) => pick(i, ISSUE_CREATE_FIELDS) as never);
      const records = await createIssues(g.app, g.actor, inputs);
      return payload(g, { issues: records.map((r) => issueOut(g, r)) });
    },
    issueBatchUpdate: async (_s, a: { ids: string[]; input: Input }, g) => {
      checkBatchSize('ids', a.ids.length); // before reading each issue's labels
      const patch = pick(a.input, ISSUE_FIELDS);
      const changes = [];
      for (const id of a.ids)
        changes.push({ id, patch: { ...patch, ...(await labelPatch(g, id, a.input)) } as never });
      const records = await updateIssues(g.app, g.actor, changes);
      return payload(g, { issues: records.map((r) => issueOut(g, r)) });
    },
    issueDelete: async (_s, a: { id: string }, g) => {
      const record = await issues.deleteIssue(g.app, g.actor, a.id);
      return payload(g, { entity: issueOut(g, record), entityId: record.id });
    },
    issueArchive: async (_s, a: { id: string }, g) => {
      const record = await issues.archiveIssue(g.app, g.actor, a.id);
      return payload(g, { entity: issueOut(g, record) });
    },
    issueUnarchive: async (_s, a: { id: string }, g) => {
      const record = await issues.unarchiveIssue(g.app, g.actor, a.id);
      return payload(g, { entity: issueOut(g, record) });
    },

    commentCreate: async (_s, a: { input: Input }, g) => {
      const record = await comments.createComment(
        g.app,
        g.actor,
        pick(a.input, ['issueId', 'body', 'parentId', 'id']) as never,
      );
      return payload(g, { comment: commentNode(record) });
    },
    commentUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const record = await comments.updateComment(g.app, g.actor, a.id, pick(a.input, ['body']) as never);
      return payload(g, { comment: commentNode(record) });
    },
    commentDelete: async (_s, a: { id: string }, g) => {
      await comments.deleteComment(g.app, g.actor, a.id);
      return payload(g, { entityId: a.id });
    },

    projectCreate: async (_s, a: { input: Input }, g) => {
      const input = { ...pick(a.input, PROJECT_FIELDS), ...projectStatus(a.input) };
      const record = await projects.createProject(g.app, g.actor, input as never);
      return payload(g, { project: projectNode(record, g.app.config.publicUrl) });
    },
    projectUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = { ...pick(a.input, PROJECT_FIELDS), ...projectStatus(a.input) };
      const record = await projects.updateProject(g.app, g.actor, a.id, input as never);
      return payload(g, { project: projectNode(record, g.app.config.publicUrl) });
    },
    projectDelete: async (_s, a: { id: string }, g) => {
      const record = await projects.deleteProject(g.app, g.actor, a.id);
      return payload(g, { entity: projectNode(record, g.app.config.publicUrl), entityId: record.id });
    },

    cycleCreate: async (_s, a: { input: Input }, g) => {
      const input = pick(a.input, ['teamId', 'startsAt', 'endsAt', 'name', 'description']);
      const record = await cycles.createCycle(g.app, g.actor, input as never);
      return payload(g, { cycle: cycleNode(record, g.now) });
    },
    cycleUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = pick(a.input, ['startsAt', 'endsAt', 'name', 'description', 'completedAt']);
      const record = await cycles.updateCycle(g.app, g.actor, a.id, input as never);
      return payload(g, { cycle: cycleNode(record, g.now) });
    },

    issueLabelCreate: async (_s, a: { input: Input }, g) => {
      const input = pick(a.input, ['name', 'color', 'description', 'teamId', 'parentId', 'isGroup']);
      const record = await labels.createLabel(g.app, g.actor, input as never);
      return payload(g, { issueLabel: labelNode(record) });
    },
    issueLabelUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = pick(a.input, ['name', 'color', 'description', 'parentId', 'isGroup']);
      const record = await labels.updateLabel(g.app, g.actor, a.id, input as never);
      return payload(g, { issueLabel: labelNode(record) });
    },
    issueLabelDelete: async (_s, a: { id: string }, g) => {
      const record = await labels.deleteLabel(g.app, g.actor, a.id);
      return payload(g, { entityId: record.id });
    },

    webhookCreate: async (_s, a: { input: Input }, g) => {
      const input = {
        ...pick(a.input, ['url', 'label', 'secret', 'enabled', 'teamId', 'allPublicTeams']),
        ...(a.input.resourceTypes !== undefined
          ? { resourceTypes: resourceTypesIn(a.input.resourceTypes) }
          : {}),
      };
      const { webhook, secret } = await webhooks.createWebhook(g.app, g.actor, input as never);
      // The signing secret is returned here, once.
      return payload(g, { webhook: webhookNode(webhook, secret) });
    },
    webhookUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = {
        ...pick(a.input, ['url', 'label', 'secret', 'enabled']),
        ...(a.input.resourceTypes != null ? { resourceTypes: resourceTypesIn(a.input.resourceTypes) } : {}),
      };
      const webhook = await webhooks.updateWebhook(g.app, g.actor, a.id, input as never);
      return payload(g, { webhook: webhookNode(webhook) });
    },
    webhookDelete: async (_s, a: { id: string }, g) => {
      await webhooks.deleteWebhook(g.app, g.actor, a.id);
      return payload(g, { entityId: a.id });
    },

    attachmentCreate: async (_s, a: { input: Input }, g) => {
      const input = pick(a.input, ['issueId', 'title', 'subtitle', 'url', 'metadata']);
      const record = await attachments.createAttachment(g.app, g.actor, input as never);
      return payload(g, { attachment: attachmentNode(record) });
    },
    // The git links write what a pull request's webhook writes (modules/git/links.ts).
    // `id`, `createAsUser` and `displayIconUrl` are accepted and not used (docs/git.md).
    attachmentLinkGitHubPR: async (
      _s,
      a: { issueId: string; url: string; title?: string | null; linkKind?: string | null },
      g,
    ) => {
      const record = await gitLinks.linkGitHubPullRequest(g.app, g.actor, a);
      return payload(g, { attachment: attachmentNode(record) });
    },
    attachmentLinkGitLabMR: async (
      _s,
      a: {
        issueId: string;
        url: string;
        projectPathWithNamespace: string;
        number: number;
        title?: string | null;
      },
      g,
    ) => {
      const record = await gitLinks.linkGitLabMergeRequest(g.app, g.actor, a);
      return payload(g, { attachment: attachmentNode(record) });
    },
    attachmentLinkURL: async (_s, a: { issueId: string; url: string; title?: string | null }, g) => {
      const record = await gitLinks.linkUrl(g.app, g.actor, a);
      return payload(g, { attachment: attachmentNode(record) });
    },
    attachmentUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = pick(a.input, ['title', 'subtitle', 'metadata']);
      const record = await attachments.updateAttachment(g.app, g.actor, a.id, input as never);
      return payload(g, { attachment: attachmentNode(record) });
    },
    attachmentDelete: async (_s, a: { id: string }, g) => {
      const record = await attachments.deleteAttachment(g.app, g.actor, a.id);
      return payload(g, { entityId: record.id });
    },

    fileUpload: async (
      _s,
      a: { contentType: string; filename: string; size: number; metaData?: unknown },
      g,
    ) => {
      const grant = await createUploadGrant(g.app, g.actor, {
        contentType: a.contentType,
        filename: a.filename,
        size: a.size,
      });
      return payload(g, {
        uploadFile: {
          uploadUrl: grant.uploadUrl,
          assetUrl: grant.assetUrl,
          headers: grant.headers,
          contentType: grant.file.content_type,
          filename: grant.file.filename,
          size: Number(grant.file.size),
          metaData: a.metaData ?? null,
        },
      });
    },
  },
};
