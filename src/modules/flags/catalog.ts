// The feature flags a workspace has, with their defaults. First start inserts
// any that are missing; removing one here does not delete its row.
export const FLAG_CATALOG = [
  {
    key: 'projects',
    label: 'Projects',
    description: 'Group issues into projects with a status, health, lead and target date.',
    enabled: true,
  },
  {
    key: 'cycles',
    label: 'Cycles',
    description: 'Time-boxed iterations per team, numbered automatically, with progress from their issues.',
    enabled: true,
  },
  {
    key: 'attachments',
    label: 'Attachments and uploads',
    description: 'Upload files and attach them, or links, to issues.',
    enabled: true,
  },
] as const;

export type FlagKey = (typeof FLAG_CATALOG)[number]['key'];
