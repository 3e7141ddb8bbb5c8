import { ACCOUNT_TOOLS } from './account.tools';
import { PROJECT_TOOLS } from './projects.tools';
import { TASK_TOOLS } from './tasks.tools';
import type { ToolDefinition } from './tool-definition';

/** Every tool the assistant server lists, by area. */
export const ALL_TOOLS: readonly ToolDefinition[] = [...TASK_TOOLS, ...PROJECT_TOOLS, ...ACCOUNT_TOOLS];

export type { ToolDefinition } from './tool-definition';
