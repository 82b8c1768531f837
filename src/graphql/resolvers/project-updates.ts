// Project updates over GraphQL: the root fields, the mutations (through the
// project-updates service, so rules and events are REST's), Project's
// projectUpdates and lastUpdate, and an update's relations.
import { assertFeature } from '../../modules/flags/service.js';
import * as updates from '../../modules/project-updates/service.js';
import { projectUrl } from '../../modules/projects/present.js';
import type { ProjectRow, ProjectUpdateRow } from '../../platform/db/tables.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists, nested } from '../connections.js';
import type { GqlContext } from '../context.js';
import { node } from '../nodes.js';
import { belongsTo, mustLoad } from './helpers.js';

type Input = Record<string, unknown>;

const projectsOn = (g: GqlContext) => assertFeature(g.db, 'projects', 'projects');

const payload = async (g: GqlContext, record: Record<string, unknown>) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  ...record,
});

const projectUpdates = nested(lists.projectUpdates, 'project.projectUpdates');

export const projectUpdateResolvers: ResolverMap = {
  Query: {
    projectUpdate: async (_s, a: { id: string }, g) => {
      await projectsOn(g);
      return node.projectUpdate(await mustLoad<ProjectUpdateRow>(g, 'projectUpdate', a.id, 'Project update'));
    },
    projectUpdates: async (_s, a: ListArgs, g) => {
      await projectsOn(g);
      return listConnection(g, lists.projectUpdates, a);
    },
  },

  Mutation: {
    projectUpdateCreate: async (_s, a: { input: Input }, g) => {
      const { projectId, body, health, id } = a.input;
      const row = await updates.createProjectUpdate(g.app, g.actor, { projectId, body, health, id });
      return payload(g, { projectUpdate: node.projectUpdate(row) });
    },
    projectUpdateUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const patch = { body: a.input.body, health: a.input.health };
      const row = await updates.updateProjectUpdate(g.app, g.actor, a.id, patch);
      return payload(g, { projectUpdate: node.projectUpdate(row) });
    },
    projectUpdateArchive: async (_s, a: { id: string }, g) => {
      const row = await updates.archiveProjectUpdate(g.app, g.actor, a.id, true);
      return payload(g, { entity: node.projectUpdate(row) });
    },
    projectUpdateUnarchive: async (_s, a: { id: string }, g) => {
      const row = await updates.archiveProjectUpdate(g.app, g.actor, a.id, false);
      return payload(g, { entity: node.projectUpdate(row) });
    },
    projectUpdateDelete: async (_s, a: { id: string }, g) => {
      await updates.deleteProjectUpdate(g.app, g.actor, a.id);
      return payload(g, { entityId: a.id });
    },
  },

  ProjectUpdate: {
    user: belongsTo('user', 'user_id', node.user),
    project: belongsTo('project', 'project_id', node.project),
    // The project's page, at the update.
    url: async (src, _a, g) => {
      const project = (await g.loaders.project.load(src.row.project_id)) as ProjectRow | null;
      return project ? `${projectUrl(g.app.config.publicUrl, project)}#update-${src.row.slug_id}` : '';
    },
  },

  Project: {
    projectUpdates: (src, a, g, info) => projectUpdates(src, a, g, info),
    lastUpdate: async (src, _a, g) => {
      const row = await g.loaders.lastProjectUpdates.load(src.id);
      return row ? node.projectUpdate(row) : null;
    },
  },
};
