import { type RestTaskInput, TASK_CREATE_INPUTS, TASK_UPDATE_INPUTS } from '@doable/contracts-rest';
import { SyncSubjects } from '@doable/contracts-sync';
import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { completedTasksReply } from '../calls/edge-replies';
import { commandPerId } from './batch';
import { apiObjects, asObjects, batchOutcome, cursor, id, ids, limit, pageQuery } from './shapes';
import { defineTool } from './tool-definition';

const priority = z.enum(['p1', 'p2', 'p3', 'p4']).optional().describe('p1 is the most urgent, p4 (the default) the least');
/** p1..p4 as the apps show them; the API counts the other way (4 is p1). */
const apiPriority = (value: string | undefined) => (value === undefined ? undefined : 5 - Number(value.slice(1)));

const taskFields = {
  description: z.string().max(16383).optional(),
  priority,
  dueString: z.string().max(500).optional().describe('A due date in words ("tomorrow 5pm", "every monday")'),
  deadlineDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().describe('YYYY-MM-DD'),
  labels: z.array(z.string().min(1).max(128)).max(100).optional().describe('Label names'),
  duration: z.number().int().min(1).max(1440).optional().describe('Minutes'),
};

/**
 * The task fields REST takes as they are (from the task field table: a new line's, none of
 * today's), as this server's inputs: named as the hosted server names its inputs (the REST key in
 * camelCase), passed in the REST body under their key.
 */
interface TakenInput {
  readonly name: string;
  readonly key: string;
  readonly schema: z.ZodType;
}

export function takenInputs(inputs: readonly RestTaskInput[]): TakenInput[] {
  return inputs.map((input) => ({ name: input.key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()), key: input.key, schema: input.schema }));
}

const CREATE_INPUTS = takenInputs(TASK_CREATE_INPUTS);
const UPDATE_INPUTS = takenInputs(TASK_UPDATE_INPUTS);

const shapeOf = (inputs: readonly TakenInput[]): Record<string, z.ZodType> => Object.fromEntries(inputs.map((input) => [input.name, input.schema]));

/** Their values in a REST body. */
export function takenBody(task: Readonly<Record<string, unknown>>, inputs: readonly TakenInput[]): JsonObject {
  return Object.fromEntries(inputs.flatMap((input) => (task[input.name] === undefined ? [] : [[input.key, task[input.name]]])));
}

function taskBody(task: { content?: string; description?: string; priority?: string; dueString?: string; deadlineDate?: string; labels?: string[]; duration?: number }, inputs: readonly TakenInput[]): JsonObject {
  const body: JsonObject = {
    ...takenBody(task, inputs),
    content: task.content,
    description: task.description,
    priority: apiPriority(task.priority),
    due_string: task.dueString,
    deadline_date: task.deadlineDate,
    labels: task.labels,
    ...(task.duration !== undefined ? { duration: task.duration, duration_unit: 'minute' } : {}),
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const tasksOut = { tasks: apiObjects };

export const addTasks = defineTool({
  name: 'add-tasks',
  title: 'Add tasks',
  description: 'Adds one or more tasks, each optionally in a project, section or under a parent task.',
  input: {
    tasks: z
      .array(z.object({ ...shapeOf(CREATE_INPUTS), content: z.string().min(1).max(500), ...taskFields, projectId: id.optional(), sectionId: id.optional(), parentId: id.optional(), responsibleUser: id.optional() }))
      .min(1)
      .max(25),
  },
  output: tasksOut,
  async run(calls, { tasks }) {
    const created: JsonObject[] = [];
    // One REST create per task (each with its own request id), in order: a parent given by id exists already.
    for (const task of tasks) {
      const body = { ...taskBody(task, CREATE_INPUTS), project_id: task.projectId, section_id: task.sectionId, parent_id: task.parentId, assignee_id: task.responsibleUser };
      created.push(await calls.rest('tasks.create', { body: Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) }));
    }
    return { tasks: asObjects(created) };
  },
});

export const updateTasks = defineTool({
  name: 'update-tasks',
  title: 'Update tasks',
  description: 'Changes tasks: content, description, priority, dates, labels; moves them with projectId, sectionId or parentId.',
  input: {
    tasks: z
      .array(z.object({ ...shapeOf(UPDATE_INPUTS), id, content: z.string().min(1).max(500).optional(), ...taskFields, projectId: id.optional(), sectionId: id.optional(), parentId: id.optional() }))
      .min(1)
      .max(25),
  },
  output: tasksOut,
  async run(calls, { tasks }) {
    const updated: JsonObject[] = [];
    for (const task of tasks) {
      const body = taskBody(task, UPDATE_INPUTS);
      let answer: JsonObject = Object.keys(body).length > 0 ? await calls.rest('tasks.update', { params: { id: task.id }, body }) : {};
      const move = task.parentId ? { parent_id: task.parentId } : task.sectionId ? { section_id: task.sectionId } : task.projectId ? { project_id: task.projectId } : undefined;
      if (move) answer = await calls.rest('tasks.move', { params: { id: task.id }, body: move });
      if (!('id' in answer)) answer = await calls.rest('tasks.get', { params: { id: task.id } });
      updated.push(answer);
    }
    return { tasks: asObjects(updated) };
  },
});

export const completeTasks = defineTool({
  name: 'complete-tasks',
  title: 'Complete tasks',
  description: 'Completes tasks by id (a recurring task moves to its next occurrence).',
  input: { ids },
  output: batchOutcome,
  run: (calls, args) => commandPerId(calls, args.ids, (taskId) => ({ type: 'item_close', args: { id: taskId } })),
});

export const uncompleteTasks = defineTool({
  name: 'uncomplete-tasks',
  title: 'Uncomplete tasks',
  description: 'Reopens completed tasks by id.',
  input: { ids },
  output: batchOutcome,
  run: (calls, args) => commandPerId(calls, args.ids, (taskId) => ({ type: 'item_uncomplete', args: { id: taskId } })),
});

export const rescheduleTasks = defineTool({
  name: 'reschedule-tasks',
  title: 'Reschedule tasks',
  description: 'Gives tasks a new due date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS), keeping a recurring task\u2019s rule.',
  input: { tasks: z.array(z.object({ id, date: z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$/) })).min(1).max(100) },
  output: batchOutcome,
  run: (calls, { tasks }) => {
    const dates = new Map(tasks.map((task) => [task.id, task.date]));
    return commandPerId(calls, [...dates.keys()], (taskId) => ({ type: 'item_update', args: { id: taskId, due: { date: dates.get(taskId) } } }));
  },
});

export const findTasks = defineTool({
  name: 'find-tasks',
  title: 'Find tasks',
  description: 'Active tasks by text, project, section, parent or label (all optional; combined with AND).',
  readOnly: true,
  input: {
    searchText: z.string().min(1).max(500).optional(),
    projectId: id.optional(),
    sectionId: id.optional(),
    parentId: id.optional(),
    label: z.string().min(1).max(128).optional(),
    limit,
    cursor,
  },
  output: { tasks: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const page = args.searchText
      ? await calls.rest('tasks.filter', { query: { query: `search: ${args.searchText}`, ...pageQuery(args) } })
      : await calls.rest('tasks.list', { query: { project_id: args.projectId, section_id: args.sectionId, parent_id: args.parentId, label: args.label, ...pageQuery(args) } });
    // The text search reads across projects: narrow it to what else was asked.
    const results = page.results.filter(
      (task) =>
        !args.searchText ||
        ((!args.projectId || task.project_id === args.projectId) &&
          (!args.sectionId || task.section_id === args.sectionId) &&
          (!args.parentId || task.parent_id === args.parentId) &&
          (!args.label || task.labels.includes(args.label))),
    );
    return { tasks: asObjects(results), nextCursor: page.next_cursor };
  },
});

export const findTasksByDate = defineTool({
  name: 'find-tasks-by-date',
  title: 'Find tasks by date',
  description: 'Active tasks due in a date range: startDate ("today" or YYYY-MM-DD) and a number of days; overdue ones too when the range starts today.',
  readOnly: true,
  input: { startDate: z.union([z.literal('today'), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)]), daysCount: z.number().int().min(1).max(30).optional(), limit, cursor },
  output: { tasks: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const days = args.daysCount ?? 1;
    const query =
      args.startDate === 'today'
        ? days === 1
          ? 'today | overdue'
          : `overdue | due before: +${days} days`
        : days === 1
          ? `due: ${args.startDate}`
          : `due after: ${args.startDate} & due before: ${addDays(args.startDate, days)} | due: ${args.startDate}`;
    const page = await calls.rest('tasks.filter', { query: { query, ...pageQuery(args) } });
    return { tasks: asObjects(page.results), nextCursor: page.next_cursor };
  },
});

function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

export const findCompletedTasks = defineTool({
  name: 'find-completed-tasks',
  title: 'Find completed tasks',
  description: 'Tasks completed between two dates (YYYY-MM-DD, at most 3 months apart), optionally in one project.',
  readOnly: true,
  input: { since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), projectId: id.optional(), limit, cursor },
  output: { tasks: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const answer = await calls.edge(SyncSubjects.completed, completedTasksReply, 'GET', '/api/v1/tasks/completed/by_completion_date', {
      query: { since: `${args.since}T00:00:00Z`, until: `${args.until}T23:59:59Z`, project_id: args.projectId, ...pageQuery(args) },
    });
    return { tasks: asObjects(answer.items), nextCursor: answer.next_cursor };
  },
});

export const TASK_TOOLS = [addTasks, updateTasks, completeTasks, uncompleteTasks, rescheduleTasks, findTasks, findTasksByDate, findCompletedTasks];
