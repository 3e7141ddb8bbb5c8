import { SyncSubjects } from '@doable/contracts-sync';
import type { DomainCalls } from '../calls/domain-calls';
import type { SyncListed } from '../calls/sync-answer';
import { type Clock, clockOf } from './local-calendar';
import type { ActiveTask, Completion } from './project-figures';
import { completedTasksReply } from '../calls/edge-replies';

/** What the figures of every project are computed from: one Sync API read. */
export interface AccountState {
  readonly projects: readonly SyncListed['projects'][];
  readonly activeByProject: ReadonlyMap<string, ActiveTask[]>;
  /** Completed tasks per project: completed_info's count, plus checked subtasks not yet in history. */
  readonly completedByProject: ReadonlyMap<string, number>;
  readonly clock: Clock;
}

const DAY_MS = 86_400_000;
/** Pages of 200 read from the completed history at most (10 000 completions): figures of a busier window undercount. */
const MAX_COMPLETED_PAGES = 50;

function activeTaskOf(item: SyncListed['items']): ActiveTask {
  return {
    id: item.id,
    content: item.content,
    addedAt: item.added_at,
    due: item.due?.date ?? null,
    deadline: item.deadline?.date ?? null,
    priority: item.priority,
    labels: item.labels,
  };
}

const live = <T extends { readonly is_deleted: boolean }>(objects: readonly T[] = []): T[] => objects.filter((object) => object.is_deleted !== true);

/** Projects, tasks, completed counts and the user's time zone, read once through the Sync API. */
export async function readAccountState(calls: DomainCalls, now = new Date()): Promise<AccountState> {
  const answer = await calls.read(['projects', 'items', 'completed_info', 'user']);
  const activeByProject = new Map<string, ActiveTask[]>();
  const completedByProject = new Map<string, number>();
  const add = (projectId: string, count: number) => completedByProject.set(projectId, (completedByProject.get(projectId) ?? 0) + count);
  for (const item of live(answer.items)) {
    if (item.checked === true) add(item.project_id, 1);
    else activeByProject.set(item.project_id, [...(activeByProject.get(item.project_id) ?? []), activeTaskOf(item)]);
  }
  for (const info of answer.completed_info ?? []) {
    if ('project_id' in info) add(info.project_id, info.completed_items);
  }
  return {
    projects: live(answer.projects),
    activeByProject,
    completedByProject,
    clock: clockOf(now, answer.user?.tz_info.timezone),
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
    const answer = await calls.edge(SyncSubjects.completed, completedTasksReply, 'GET', '/api/v1/tasks/completed/by_completion_date', {
      query: { since, until, project_id: scope.projectId, workspace_id: scope.workspaceId, limit: '200', cursor },
    });
    for (const item of answer.items) {
      if (item.completed_at === null) continue;
      found.push({ id: item.id, projectId: item.project_id, addedAt: item.added_at, completedAt: item.completed_at });
    }
    if (!answer.next_cursor) break;
    cursor = answer.next_cursor;
  }
  return found;
}

/** A project as the Sync API lists it or as api/v1 REST answers it: one contract schema (projectApiV1) reads both. */
export type ProjectRead = SyncListed['projects'];

/**
 * The project as the Sync API listed it; one it did not list (archived, or not the caller's) is
 * asked of api/v1 REST, whose refusal (PROJECT_NOT_FOUND) is the tool's answer.
 */
export async function projectIn(calls: DomainCalls, state: AccountState, projectId: string): Promise<ProjectRead> {
  return state.projects.find((project) => project.id === projectId) ?? (await calls.rest('projects.get', { params: { id: projectId } }));
}
