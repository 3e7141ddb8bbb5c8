import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { defineTool } from './tool-definition';

export const userInfo = defineTool({
  name: 'user-info',
  title: 'User info',
  description: 'Who the token belongs to: id, name, email, time zone, start of week, plan and goals.',
  readOnly: true,
  input: {},
  output: {
    id: z.string(),
    fullName: z.string(),
    email: z.string(),
    timezone: z.string().nullable(),
    startDay: z.number().nullable(),
    isPremium: z.boolean(),
    dailyGoal: z.number().nullable(),
    weeklyGoal: z.number().nullable(),
  },
  async run(calls) {
    const user = await calls.rest<JsonObject>('GET', '/api/v1/user');
    const tz = user['tz_info'] as { timezone?: string } | undefined;
    return {
      id: String(user['id']),
      fullName: typeof user['full_name'] === 'string' ? user['full_name'] : '',
      email: typeof user['email'] === 'string' ? user['email'] : '',
      timezone: tz?.timezone ?? null,
      startDay: typeof user['start_day'] === 'number' ? user['start_day'] : null,
      isPremium: user['is_premium'] === true,
      dailyGoal: typeof user['daily_goal'] === 'number' ? user['daily_goal'] : null,
      weeklyGoal: typeof user['weekly_goal'] === 'number' ? user['weekly_goal'] : null,
    };
  },
});

export const listWorkspaces = defineTool({
  name: 'list-workspaces',
  title: 'List workspaces',
  description: 'The workspaces the user belongs to, with their role and plan.',
  readOnly: true,
  input: {},
  output: { workspaces: z.array(z.object({ id: z.string() }).passthrough()) },
  async run(calls) {
    const answer = await calls.rest<Array<{ id: string } & JsonObject> | { results: Array<{ id: string } & JsonObject> }>('GET', '/api/v1/workspaces');
    return { workspaces: Array.isArray(answer) ? answer : answer.results };
  },
});

export const ACCOUNT_TOOLS = [userInfo, listWorkspaces];
