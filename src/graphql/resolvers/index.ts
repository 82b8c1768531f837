// Every resolver map, merged into the schema by build-schema.ts.
import type { ResolverMap } from '../build-schema.js';
import { auditResolvers } from './audit.js';
import { milestoneResolvers } from './milestones.js';
import { mutationResolvers } from './mutations.js';
import { issueNotificationResolvers } from './notification-node.js';
import { notificationResolvers } from './notifications.js';
import { projectUpdateResolvers } from './project-updates.js';
import { reactionResolvers } from './reactions.js';
import { readResolvers } from './reads.js';
import { relationResolvers } from './relations.js';
import { sessionResolvers } from './sessions.js';
import { teamResolvers } from './teams.js';
import { viewResolvers } from './views.js';

export const allResolvers: ResolverMap[] = [
  readResolvers,
  mutationResolvers,
  teamResolvers,
  relationResolvers,
  milestoneResolvers,
  viewResolvers,
  notificationResolvers,
  issueNotificationResolvers,
  reactionResolvers,
  projectUpdateResolvers,
  sessionResolvers,
  auditResolvers,
];
