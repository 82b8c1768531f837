// Ordered list of migrations. Append only: never edit one that has shipped.
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_issue_lists.js';
import * as m0003 from './0003_file_uploads.js';
import * as m0004 from './0004_webhook_delivery.js';
import * as m0006 from './0006_issue_team_state.js';
import * as m0007 from './0007_auth_throttle.js';
import * as m0008 from './0008_comment_soft_delete.js';
import * as m0009 from './0009_team_keys.js';
import * as m0010 from './0010_attachment_files.js';
import * as m0011 from './0011_issue_relations.js';
import * as m0012 from './0012_project_milestones.js';
import * as m0013 from './0013_event_scope.js';
import * as m0014 from './0014_file_chunks.js';
import * as m0015 from './0015_graphql_budget.js';
import * as m0016 from './0016_custom_views.js';
import * as m0017 from './0017_notifications.js';
import * as m0018 from './0018_outgoing_mail.js';
import * as m0019 from './0019_user_scoped_events.js';
import * as m0021 from './0021_notification_keyset.js';
import * as m0023 from './0023_issue_counts.js';
import * as m0024 from './0024_issue_title_search.js';
import * as m0025 from './0025_comment_search.js';
import * as m0027 from './0027_attachment_file_rule.js';
import * as m0030 from './0030_budget_kinds.js';
import * as m0031 from './0031_stored_slugs.js';
import * as m0032 from './0032_user_faces.js';
import * as m0033 from './0033_reactions.js';
import * as m0034 from './0034_project_updates.js';
import * as m0040 from './0040_credential_notify.js';
import * as m0041 from './0041_audit_log.js';
import * as m0042 from './0042_sessions.js';
import * as m0044 from './0044_scim.js';
import * as m0045 from './0045_audit_reads.js';
import * as m0046 from './0046_sso.js';
import * as m0047 from './0047_audit_search.js';
import * as m0048 from './0048_git.js';
import * as m0049 from './0049_oauth.js';
import * as m0050 from './0050_oauth_apps.js';
import * as m0051 from './0051_git_backlinks.js';
import * as m0052 from './0052_imports.js';
import * as m0053 from './0053_app_actor.js';
import * as m0055 from './0055_import_kinds.js';
import * as m0056 from './0056_import_jira.js';
import * as m0057 from './0057_git_branch_format.js';
import * as m0058 from './0058_git_github_app.js';
import * as m0059 from './0059_backups.js';
import * as m0060 from './0060_import_jira_xml.js';
import * as m0061 from './0061_cycle_settings.js';
import * as m0062 from './0062_triage.js';
import * as m0063 from './0063_issues_estimate.js';
import * as m0064 from './0064_import_progress.js';
import * as m0065 from './0065_client_ids.js';
import * as m0066 from './0066_project_notifications.js';
import * as m0067 from './0067_state_issue_counts.js';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

export const migrations: Migration[] = [
  { version: 1, ...m0001 },
  { version: 2, ...m0002 },
  { version: 3, ...m0003 },
  { version: 4, ...m0004 },
  { version: 6, ...m0006 },
  { version: 7, ...m0007 },
  { version: 8, ...m0008 },
  { version: 9, ...m0009 },
  { version: 10, ...m0010 },
  { version: 11, ...m0011 },
  { version: 12, ...m0012 },
  { version: 13, ...m0013 },
  { version: 14, ...m0014 },
  { version: 15, ...m0015 },
  { version: 16, ...m0016 },
  { version: 17, ...m0017 },
  { version: 18, ...m0018 },
  { version: 19, ...m0019 },
  { version: 21, ...m0021 },
  { version: 23, ...m0023 },
  { version: 24, ...m0024 },
  { version: 25, ...m0025 },
  { version: 27, ...m0027 },
  { version: 30, ...m0030 },
  { version: 31, ...m0031 },
  { version: 32, ...m0032 },
  { version: 33, ...m0033 },
  { version: 34, ...m0034 },
  { version: 40, ...m0040 },
  { version: 41, ...m0041 },
  { version: 42, ...m0042 },
  { version: 44, ...m0044 },
  { version: 45, ...m0045 },
  { version: 46, ...m0046 },
  { version: 47, ...m0047 },
  { version: 48, ...m0048 },
  { version: 49, ...m0049 },
  { version: 50, ...m0050 },
  { version: 51, ...m0051 },
  { version: 52, ...m0052 },
  { version: 53, ...m0053 },
  { version: 55, ...m0055 },
  { version: 56, ...m0056 },
  { version: 57, ...m0057 },
  { version: 58, ...m0058 },
  { version: 59, ...m0059 },
  { version: 60, ...m0060 },
  { version: 61, ...m0061 },
  { version: 62, ...m0062 },
  { version: 63, ...m0063 },
  { version: 64, ...m0064 },
  { version: 65, ...m0065 },
  { version: 66, ...m0066 },
  { version: 67, ...m0067 },
];
