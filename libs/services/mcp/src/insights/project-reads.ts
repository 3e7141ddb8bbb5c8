import { SyncSubjects } from '@doable/contracts-sync';
import type { DomainCalls, JsonObject } from '../calls/domain-calls';
import { textOf } from '../tools/shapes';
import { type Clock, clockOf } from './local-calendar';
import type { ActiveTask, Completion } from './project-figures';

/** What the figures of every project are computed from: one Sync API read. */
export interface AccountState {
  readonly projects: ReadonlyArray<{ id: string } & JsonObject>;
  readonly activeByProject: ReadonlyMap<string, ActiveTask[]>;
  /** Completed tasks per project: completed_info's count, plus checked subtasks not yet in history. */
  readonly completedByProject: ReadonlyMap<string, number>;
  readonly clock: Clock;
}

const DAY_MS = 86_400_000;
/** Pages of 200 read from the completed history at most (10 000 completions): figures of a busier window undercount. */
const MAX_COMPLETED_PAGES = 50;

const dateOf = (value: unknown): string | null => {
  const date = (value as { date?: unknown } | null | undefined)?.date;
  return typeof date === 'string' ? date : null;
};

function activeTaskOf(item: JsonObject): ActiveTask {
  return {
    id: String(item['id']),
    content: textOf(item['content']),
    addedAt: typeof item['added_at'] === 'string' ? item['added_at'] : null,
    due: dateOf(item['due']),
    deadline: dateOf(item['deadline']),
    priority: typeof item['priority'] === 'number' ? item['priority'] : 1,
    labels: Array.isArray(item['labels']) ? (item['labels'] as unknown[]).map(String) : [],
  };
}

/** Projects, tasks, completed counts and the user's time zone, read once through the Sync API. */
export async function readAccountState(calls: DomainCalls, now = new Date()): Promise<AccountState> {
  const answer = await calls.read(['projects', 'items', 'completed_info', 'user']);
  const live = (key: string) => ((answer[key] ?? []) as JsonObject[]).filter((object) => object['is_deleted'] !== true);
  const activeByProject = new Map<string, ActiveTask[]>();
  const completedByProject = new Map<string, number>();
  const add = (projectId: string, count: number) => completedByProject.set(projectId, (completedByProject.get(projectId) ?? 0) + count);
  for (const item of live('items')) {
    const projectId = String(item['project_id']);
    if (item['checked'] === true) add(projectId, 1);
    else activeByProject.set(projectId, [...(activeByProject.get(projectId) ?? []), activeTaskOf(item)]);
  }
  for (const info of (answer['completed_info'] ?? []) as JsonObject[]) {
    if (info['project_id'] !== undefined && typeof info['completed_items'] === 'number') add(textOf(info['project_id']), info['completed_items']);
  }
  const user = (answer['user'] ?? {}) as JsonObject;
  return {
    projects: live('projects').map((project) => ({ ...project, id: String(project['id']) })),
    activeByProject,
    completedByProject,
    clock: clockOf(now, (user['tz_info'] as { timezone?: unknown } | undefined)?.timezone),
  };
}

/**
 * Tasks completed in the last `days` days (one more day is asked for, so the user's first local
 * day is whole), of one project or one workspace, through the completed history (api/v1
 * `tasks/completed/by_completion_date`, read page after page).
 */
export async function readCompletions(calls: DomainCalls, clock: Clock, days: number, scope: { projectId?: string; workspaceId?: string }): Promise<Completion[]> {
  const since = new Date(clock.now.getTime() - (days + 1) * DAY_MS).toISOString();
  const until = new Date(clock.now.getTime() + 60_000).toISOString();
  const found: Completion[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_COMPLETED_PAGES; page++) {
    const answer = await calls.edge<{ items: JsonObject[]; next_cursor: string | null }>(SyncSubjects.completed, 'GET', '/api/v1/tasks/completed/by_completion_date', {
      query: { since, until, project_id: scope.projectId, workspace_id: scope.workspaceId, limit: '200', cursor },
    });
    for (const item of answer.items) {
      if (typeof item['completed_at'] !== 'string') continue;
      found.push({ id: String(item['id']), projectId: String(item['project_id']), addedAt: typeof item['added_at'] === 'string' ? item['added_at'] : null, completedAt: item['completed_at'] });
    }
    if (!answer.next_cursor) break;
    cursor = answer.next_cursor;
  }
  return found;
}

/**
 * The project as the Sync API listed it; one it did not list (archived, or not the caller's) is
 * asked of api/v1 REST, whose refusal (PROJECT_NOT_FOUND) is the tool's answer.
 */
export async function projectIn(calls: DomainCalls, state: AccountState, projectId: string): Promise<{ id: string } & JsonObject> {
  return state.projects.find((project) => project.id === projectId) ?? (await calls.rest<{ id: string } & JsonObject>('GET', `/api/v1/projects/${encodeURIComponent(projectId)}`));
}
