import { z } from 'zod';
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
    const user = await calls.rest('user.get');
    return {
      id: user.id,
      fullName: user.full_name,
      email: user.email,
      timezone: user.tz_info.timezone,
      startDay: user.start_day,
      isPremium: user.is_premium,
      dailyGoal: user.daily_goal,
      weeklyGoal: user.weekly_goal,
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
    const answer = await calls.rest('workspaces.list');
    return { workspaces: answer };
  },
});

export const ACCOUNT_TOOLS = [userInfo, listWorkspaces];
