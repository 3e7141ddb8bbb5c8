import { ACCOUNT_TOOLS } from './account.tools';
import { ATTACHMENT_TOOLS } from './attachments.tools';
import { COLLABORATION_TOOLS } from './collaboration.tools';
import { COMMENT_TOOLS } from './comments.tools';
import { FILTER_TOOLS } from './filters.tools';
import { HEALTH_TOOLS } from './health.tools';
import { INSIGHT_TOOLS } from './insights.tools';
import { LABEL_TOOLS } from './labels.tools';
import { OBJECT_TOOLS } from './objects.tools';
import { PROJECT_TOOLS } from './projects.tools';
import { REMINDER_TOOLS } from './reminders.tools';
import { SEARCH_TOOLS } from './search.tools';
import { SECTION_TOOLS } from './sections.tools';
import { TASK_TOOLS } from './tasks.tools';
import { TEMPLATE_TOOLS } from './templates.tools';
import type { ToolDefinition } from './tool-definition';

/** Every tool the assistant server lists, by area (the hosted server's names). */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...TASK_TOOLS,
  ...PROJECT_TOOLS,
  ...SECTION_TOOLS,
  ...COMMENT_TOOLS,
  ...ATTACHMENT_TOOLS,
  ...REMINDER_TOOLS,
  ...LABEL_TOOLS,
  ...FILTER_TOOLS,
  ...COLLABORATION_TOOLS,
  ...INSIGHT_TOOLS,
  ...HEALTH_TOOLS,
  ...OBJECT_TOOLS,
  ...TEMPLATE_TOOLS,
  ...ACCOUNT_TOOLS,
  ...SEARCH_TOOLS,
];

export type { ToolDefinition } from './tool-definition';
