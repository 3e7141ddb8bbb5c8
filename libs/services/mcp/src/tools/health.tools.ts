import { z } from 'zod';
import { completionBuckets } from '../insights/completion-buckets';
import { clockOf } from '../insights/local-calendar';
import { countLate, HEALTH_STATUSES, healthOf, lateTasks, projectMetrics, RECENT_DAYS } from '../insights/project-figures';
import { type AccountState, type ProjectRead, projectIn, readAccountState, readCompletions } from '../insights/project-reads';
import { matchWorkspace } from '../insights/workspace-match';
import { id } from './shapes';
import { defineTool } from './tool-definition';

/**
 * Project health, activity and workspace insights. The hosted server asks Todoist's own
 * analysis; here every figure is computed on each call from what the domain already answers
 * (the Sync API's tasks and completed counts, the completed history), by fixed rules
 * (insights/project-figures.ts): never stale, never "in progress".
 */

const RULES =
  'Status by fixed rules: UNKNOWN (no tasks), CRITICAL (more than half of the active tasks late, or some late and nothing completed in 14 days), ' +
  'AT_RISK (some task overdue or past its deadline, or nothing completed in 14 days nor added in 7), EXCELLENT (nothing late, and everything done or at least as many ' +
  'completed as added in the last 7 days), ON_TRACK otherwise. Days are the user\'s calendar days (their time zone).';

const status = z.enum(HEALTH_STATUSES);
const progress = z.object({
  completedCount: z.number().describe('Completed tasks kept in the project'),
  activeCount: z.number().describe('Tasks not completed'),
  progressPercent: z.number().describe('completedCount out of all tasks, 0-100'),
});
const metrics = z.object({
  activeTasks: z.number(),
  completedTasks: z.number(),
  progressPercent: z.number(),
  overdueTasks: z.number().describe('Active tasks whose due date or time has passed'),
  pastDeadlineTasks: z.number().describe('Active tasks whose deadline has passed'),
  unscheduledTasks: z.number().describe('Active tasks without a due date'),
  tasksAddedLast7Days: z.number(),
  tasksCompletedLast7Days: z.number(),
  tasksCompletedPrevious7Days: z.number().describe('Completed in the 7 days before the last 7'),
  averageCompletionDays: z.number().nullable().describe('Mean days from added to completed, over the last 28 days; null without completions'),
});
const attention = z.object({ taskId: z.string(), content: z.string(), reason: z.enum(['overdue', 'past_deadline']), date: z.string() });

/** Everything the figures of one project need, read once; a project the caller cannot see is refused. */
async function projectFigures(calls: Parameters<typeof readAccountState>[0], projectId: string) {
  const state = await readAccountState(calls);
  const project = await projectIn(calls, state, projectId);
  const recent = await readCompletions(calls, state.clock, RECENT_DAYS, { projectId });
  return figuresOf(state, project, recent);
}

function figuresOf(state: AccountState, project: ProjectRead, recent: Awaited<ReturnType<typeof readCompletions>>) {
  const active = state.activeByProject.get(project.id) ?? [];
  const computed = projectMetrics(active, state.completedByProject.get(project.id) ?? 0, recent.filter((done) => done.projectId === project.id), state.clock);
  const late = countLate(active, state.clock);
  return { project, active, metrics: computed, late, health: healthOf(computed, late), attention: lateTasks(active, state.clock), clock: state.clock };
}

function recommendationOf(item: { reason: 'overdue' | 'past_deadline'; date: string }): string {
  return item.reason === 'overdue' ? `Overdue since ${item.date}: reschedule it, complete it or delete it.` : `Its deadline ${item.date} has passed: move the deadline or finish it.`;
}

export const getProjectHealth = defineTool({
  name: 'get-project-health',
  title: 'Project health',
  description: `A project's health: status, progress (completed out of all tasks) and the late tasks to look at; with includeContext, the figures behind it and the active tasks. Computed on each call from the project's tasks and completed history, never stale. ${RULES}`,
  readOnly: true,
  input: { projectId: id, includeContext: z.boolean().optional().describe('Add the figures and the active tasks (large for big projects)') },
  output: {
    projectId: z.string(),
    projectName: z.string(),
    progress,
    health: z.object({
      status,
      description: z.string().describe('Why this status, and the figures that decided it'),
      descriptionSummary: z.string(),
      taskRecommendations: z.array(z.object({ taskId: z.string(), recommendation: z.string() })),
      isStale: z.boolean().describe('Always false: computed now'),
      updateInProgress: z.boolean().describe('Always false: nothing runs in the background'),
      updatedAt: z.string(),
    }),
    context: z
      .object({
        projectDescription: z.string().nullable(),
        projectMetrics: metrics,
        tasks: z.array(z.object({ id: z.string(), content: z.string(), priority: z.enum(['p1', 'p2', 'p3', 'p4']), due: z.string().nullable(), deadline: z.string().nullable(), isCompleted: z.boolean(), labels: z.array(z.string()) })),
      })
      .optional(),
  },
  async run(calls, args) {
    const figures = await projectFigures(calls, args.projectId);
    const { metrics: m, health } = figures;
    const description = `${health.reasons.join(' ')} ${m.activeTasks} active, ${m.completedTasks} completed (${m.progressPercent}%); ${m.tasksCompletedLast7Days} completed and ${m.tasksAddedLast7Days} added in the last 7 days.`;
    return {
      projectId: figures.project.id,
      projectName: figures.project.name,
      progress: { completedCount: m.completedTasks, activeCount: m.activeTasks, progressPercent: m.progressPercent },
      health: {
        status: health.status,
        description,
        descriptionSummary: health.reasons[0],
        taskRecommendations: figures.attention.map((item) => ({ taskId: item.taskId, recommendation: recommendationOf(item) })),
        isStale: false,
        updateInProgress: false,
        updatedAt: figures.clock.now.toISOString(),
      },
      ...(args.includeContext
        ? {
            context: {
              projectDescription: figures.project.description,
              projectMetrics: m,
              tasks: figures.active.map((task) => ({
                id: task.id,
                content: task.content,
                priority: `p${5 - Math.min(4, Math.max(1, task.priority))}` as 'p1' | 'p2' | 'p3' | 'p4',
                due: task.due,
                deadline: task.deadline,
                isCompleted: false,
                labels: [...task.labels],
              })),
            },
          }
        : {}),
    };
  },
});

export const analyzeProjectHealth = defineTool({
  name: 'analyze-project-health',
  title: 'Analyze project health',
  description: `Analyzes a project now and answers its status with the reasons, the figures behind it and the late tasks (most overdue first). Nothing is queued: the answer is complete, and get-project-health will show the same. ${RULES}`,
  readOnly: true,
  input: { projectId: id },
  output: {
    projectId: z.string(),
    health: z.object({ status, isStale: z.boolean(), updateInProgress: z.boolean() }),
    message: z.string(),
    reasons: z.array(z.string()),
    metrics,
    needsAttention: z.array(attention),
  },
  async run(calls, args) {
    const figures = await projectFigures(calls, args.projectId);
    return {
      projectId: figures.project.id,
      health: { status: figures.health.status, isStale: false, updateInProgress: false },
      message: `Health analysis complete. Current status: ${figures.health.status}. ${figures.health.reasons.join(' ')}`,
      reasons: figures.health.reasons,
      metrics: figures.metrics,
      needsAttention: figures.attention,
    };
  },
});

export const getProjectActivityStats = defineTool({
  name: 'get-project-activity-stats',
  title: 'Project activity stats',
  description:
    "Tasks completed in a project per day over the last 1-12 weeks (default 2), today the last day, days without completions as 0; with includeWeeklyCounts also per 7-day stretch ending today. Days are the user's calendar days; counted from the completed history.",
  readOnly: true,
  input: {
    projectId: id,
    weeks: z.number().int().min(1).max(12).optional().describe('Weeks back (1-12, default 2)'),
    includeWeeklyCounts: z.boolean().optional(),
  },
  output: {
    projectId: z.string(),
    totalCompleted: z.number(),
    dayItems: z.array(z.object({ date: z.string(), totalCount: z.number() })),
    weekItems: z.array(z.object({ fromDate: z.string(), toDate: z.string(), totalCount: z.number() })).optional(),
  },
  async run(calls, args) {
    const weeks = args.weeks ?? 2;
    // The project first: one the caller cannot see is refused as REST refuses it.
    const [project, user] = await Promise.all([
      calls.rest('projects.get', { params: { id: args.projectId } }),
      calls.rest('user.get'),
    ]);
    const clock = clockOf(new Date(), user.tz_info.timezone);
    const completions = await readCompletions(calls, clock, weeks * 7, { projectId: project.id });
    const { dayItems, weekItems } = completionBuckets(completions, clock, weeks);
    return {
      projectId: project.id,
      totalCompleted: dayItems.reduce((sum, day) => sum + day.totalCount, 0),
      dayItems,
      ...(args.includeWeeklyCounts ? { weekItems } : {}),
    };
  },
});

export const getWorkspaceInsights = defineTool({
  name: 'get-workspace-insights',
  title: 'Workspace insights',
  description: `Health and progress of every project of a workspace the user sees (or of projectIds among them), as get-project-health computes them. The workspace by id, exact name or a unique part of its name. ${RULES}`,
  readOnly: true,
  input: { workspaceIdOrName: z.string().min(1).max(255), projectIds: z.array(id).min(1).max(200).optional() },
  output: {
    workspaceId: z.string(),
    workspaceName: z.string(),
    projectInsights: z.array(
      z.object({
        projectId: z.string(),
        projectName: z.string(),
        health: z.object({ status, isStale: z.boolean(), updateInProgress: z.boolean(), reasons: z.array(z.string()) }),
        progress,
      }),
    ),
  },
  async run(calls, args) {
    const [listed, state] = await Promise.all([
      calls.rest('workspaces.list'),
      readAccountState(calls),
    ]);
    const workspaces = listed.map((workspace) => ({ id: workspace.id, name: workspace.name }));
    const workspace = matchWorkspace(workspaces, args.workspaceIdOrName);
    const projects = state.projects.filter(
      (project) => project.workspace_id === workspace.id && project.is_archived !== true && (!args.projectIds || args.projectIds.includes(project.id)),
    );
    // One read of the workspace's completions, shared out by project (never one read per project).
    const recent = projects.length === 0 ? [] : await readCompletions(calls, state.clock, RECENT_DAYS, { workspaceId: workspace.id });
    return {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      projectInsights: projects.map((project) => {
        const figures = figuresOf(state, project, recent);
        return {
          projectId: project.id,
          projectName: project.name,
          health: { status: figures.health.status, isStale: false, updateInProgress: false, reasons: figures.health.reasons },
          progress: { completedCount: figures.metrics.completedTasks, activeCount: figures.metrics.activeTasks, progressPercent: figures.metrics.progressPercent },
        };
      }),
    };
  },
});

export const HEALTH_TOOLS = [getProjectHealth, analyzeProjectHealth, getProjectActivityStats, getWorkspaceInsights];
