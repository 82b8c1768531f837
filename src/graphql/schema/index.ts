// The whole schema's SDL, assembled from one module per domain.
import { attachmentSdl } from './attachment.js';
import { commentSdl } from './comment.js';
import { commonSdl } from './common.js';
import { comparatorsSdl } from './comparators.js';
import { cycleSdl } from './cycle.js';
import { fileSdl } from './file.js';
import { filtersSdl } from './filters.js';
import { issueSdl } from './issue.js';
import { labelSdl } from './label.js';
import { organizationSdl } from './organization.js';
import { projectSdl } from './project.js';
import { rootSdl } from './root.js';
import { sortingSdl } from './sorting.js';
import { teamSdl } from './team.js';
import { teamManagementSdl } from './team-management.js';
import { unheldSdl } from './unheld.js';
import { userSdl } from './user.js';
import { webhookSdl } from './webhook.js';
import { workflowStateSdl } from './workflow-state.js';

export const schemaSdl = [
  attachmentSdl,
  commentSdl,
  commonSdl,
  comparatorsSdl,
  cycleSdl,
  fileSdl,
  filtersSdl,
  issueSdl,
  labelSdl,
  organizationSdl,
  projectSdl,
  rootSdl,
  sortingSdl,
  teamSdl,
  teamManagementSdl,
  unheldSdl,
  userSdl,
  webhookSdl,
  workflowStateSdl,
].join('\n');
