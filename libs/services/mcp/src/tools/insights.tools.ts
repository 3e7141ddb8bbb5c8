import { SyncSubjects } from '@doable/contracts-sync';
import { z } from 'zod';
import { activitiesReply } from '../calls/edge-replies';
import { cursor, id, limit, pageQuery } from './shapes';
import { readAll } from './synced';
import { defineTool } from './tool-definition';

export const findActivity = defineTool({
  name: 'find-activity',
  title: 'Find activity',
  description: 'The activity log: what was added, changed, completed or deleted, optionally for one object or event type.',
  readOnly: true,
  input: {
    objectType: z.enum(['item', 'project', 'note']).optional(),
    objectId: id.optional(),
    eventType: z.enum(['added', 'updated', 'completed', 'uncompleted', 'deleted', 'archived', 'unarchived']).optional(),
    limit,
    cursor,
  },
  output: { events: z.array(z.object({ id: z.string() }).passthrough()), nextCursor: z.string().nullable() },
  async run(calls, args) {
    const answer = await calls.edge(SyncSubjects.activity, activitiesReply, 'GET', '/api/v1/activities', {
      query: { object_type: args.objectType, object_id: args.objectId, event_type: args.eventType, ...pageQuery(args) },
    });
    return { events: answer.results.map((event) => ({ ...event, id: String(event.id) })), nextCursor: answer.next_cursor };
  },
});

export const getProductivityStats = defineTool({
  name: 'get-productivity-stats',
  title: 'Productivity stats',
  description: 'Karma, daily and weekly completion counts, goals and streaks.',
  readOnly: true,
  input: {},
  output: { stats: z.object({}).passthrough() },
  run: async (calls) => ({ stats: await calls.rest('user.productivity_stats') }),
});

export const getOverview = defineTool({
  name: 'get-overview',
  title: 'Overview',
  description: 'The account at a glance, or one project: its sections and how many active tasks each holds.',
  readOnly: true,
  input: { projectId: id.optional() },
  output: {
    projects: z.array(z.object({ id: z.string(), name: z.string(), activeTasks: z.number(), sections: z.array(z.object({ id: z.string(), name: z.string(), activeTasks: z.number() })) })),
    totalActiveTasks: z.number(),
  },
  async run(calls, args) {
    const [projects, sections, items] = await Promise.all([readAll(calls, 'projects'), readAll(calls, 'sections'), readAll(calls, 'items')]);
    const active = items.filter((item) => item.checked !== true);
    const chosen = projects.filter((project) => project.is_archived !== true && (!args.projectId || project.id === args.projectId));
    return {
      projects: chosen.map((project) => ({
        id: project.id,
        name: project.name,
        activeTasks: active.filter((item) => item.project_id === project.id).length,
        sections: sections
          .filter((section) => section.project_id === project.id)
          .map((section) => ({ id: section.id, name: section.name, activeTasks: active.filter((item) => item.section_id === section.id).length })),
      })),
      totalActiveTasks: args.projectId ? active.filter((item) => item.project_id === args.projectId).length : active.length,
    };
  },
});

export const INSIGHT_TOOLS = [findActivity, getProductivityStats, getOverview];
