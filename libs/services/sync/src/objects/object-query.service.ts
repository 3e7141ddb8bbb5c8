import { type ApiProject, type ApiProjectFull, type ApiProjectJoined, type ApiTask, type ApiUser, type ObjectQuery, type ObjectQueryFor, type ObjectResource, readDecision, readPolicyOf } from '@doable/contracts-sync';
import { DomainError, type ErrorCode } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { syncApiV1Writers, writeFolder } from '@doable/sync-dialects';
import { type ItemRow, NoteRepository, ProductivityStatsService, type Project, ProjectMembersRepository, UserProfileRepository } from '@doable/sync-domain';
import { ObjectReadsRepository } from './object-reads.repository';
import { TaskFilterQuery } from './task-filter.query';
import { PushTokens } from '../push/push-tokens.service';
import { isWorkspaceQuery, WorkspaceObjectQueries } from './workspace-object-queries';
import { answer, type QueryResult, type TaskListQuery } from './query-result';
import { WorkspaceReadsRepository } from './workspace-reads.repository';

/** Ids given as temp ids of the same request's commands, resolved through its mapping. */
export function tempIdResolver(tempIds: Readonly<Record<string, string>>) {
  // Own keys only: an id named `__proto__` is not the mapping's prototype.
  const id = (value: string): string => (Object.hasOwn(tempIds, value) ? tempIds[value] : value);
  const optionalId = (value: string | undefined): string | undefined => (value === undefined ? undefined : id(value));
  return { id, optionalId };
}

const writeLabel = syncApiV1Writers.label;
const writeNote = syncApiV1Writers.note;

function found<T>(row: T | undefined, code: ErrorCode, what: string): T {
  if (row === undefined) throw new DomainError(code, `${what} not found`);
  return row;
}

/**
 * Answers an object query in the api/v1 shape: one read per list (filtered and paged in SQL),
 * plus one grouped count per page where the shape carries comment counts. Ids given as temp
 * ids of the same request are resolved through its mapping first.
 */
@Injectable()
export class ObjectQueryService {
  constructor(
    private readonly reads: ObjectReadsRepository,
    private readonly profiles: UserProfileRepository,
    private readonly filters: TaskFilterQuery,
    private readonly productivity: ProductivityStatsService,
    private readonly notes: NoteRepository,
    private readonly workspaceQueries: WorkspaceObjectQueries,
    private readonly workspaceReads: WorkspaceReadsRepository,
    private readonly push: PushTokens,
    private readonly members: ProjectMembersRepository,
  ) {}

  /**
   * `origin`: where the caller reached us, for the user object's `websocket_url`. Answers the
   * objects of the query's resource (QueryResult<R>): each case answers through `answer(query, ...)`,
   * which ties its objects to the query's resource, so the signature can say so.
   */
  async run<R extends ObjectResource>(manager: EntityManager, userId: string, query: ObjectQueryFor<R>, tempIds: Readonly<Record<string, string>>, origin?: string): Promise<QueryResult<R>>;
  async run(manager: EntityManager, userId: string, query: ObjectQuery, tempIds: Readonly<Record<string, string>>, origin?: string): Promise<QueryResult> {
    const { id, optionalId } = tempIdResolver(tempIds);
    if (isWorkspaceQuery(query)) return this.workspaceQueries.run(manager, userId, query, id, (reader, rows) => this.writeProjects(reader, rows));
    switch (query.resource) {
      case 'tasks':
      case 'tasks_by_filter':
        return this.taskList(manager, userId, query, tempIds);
      case 'task': {
        const tasks = await this.writeTasks(manager, userId, [found(await this.reads.task(manager, userId, id(query.id)), 'ITEM_NOT_FOUND', 'Task')]);
        return { ...answer(query, tasks), ...(await this.labelIds(manager, userId, query, tasks)) };
      }
      case 'projects': {
        const { rows, hasMore } = await this.reads.projects(manager, userId, { archived: query.archived, search: query.search }, query.page);
        return answer(query, await this.writeProjects(manager, rows), hasMore);
      }
      case 'project':
        return answer(query, await this.writeProjects(manager, [found(await this.reads.project(manager, userId, id(query.id)), 'PROJECT_NOT_FOUND', 'Project')]));
      case 'sections': {
        const { rows, hasMore } = await this.reads.sections(manager, userId, { projectId: optionalId(query.project_id), search: query.search, archived: query.archived }, query.page);
        return answer(query, rows.map((row) => syncApiV1Writers.section(row)), hasMore);
      }
      case 'section':
        return answer(query, [syncApiV1Writers.section(found(await this.reads.section(manager, userId, id(query.id)), 'SECTION_NOT_FOUND', 'Section'))]);
      case 'labels': {
        const { rows, hasMore } = await this.reads.labels(manager, userId, { search: query.search }, query.page);
        return answer(query, rows.map(writeLabel), hasMore);
      }
      case 'label':
        return answer(query, [writeLabel(found(await this.reads.label(manager, userId, id(query.id)), 'LABEL_NOT_FOUND', 'Label'))]);
      case 'shared_labels': {
        const { rows, hasMore } = await this.reads.sharedLabels(manager, userId, query.omit_personal ?? false, query.page);
        return answer(query, rows.map((name) => ({ name })), hasMore);
      }
      case 'comments': {
        const on = { taskId: optionalId(query.task_id), projectId: optionalId(query.project_id) };
        // A task or project the user cannot see is a 404, as for a single read, not an empty list.
        if (on.taskId !== undefined) found(await this.reads.task(manager, userId, on.taskId), 'ITEM_NOT_FOUND', 'Task');
        else if (on.projectId !== undefined) found(await this.reads.project(manager, userId, on.projectId), 'PROJECT_NOT_FOUND', 'Project');
        const { rows, hasMore } = await this.reads.comments(manager, userId, on, query.page);
        return answer(query, rows.map(writeNote), hasMore);
      }
      case 'comment':
        return answer(query, [writeNote(found(await this.reads.comment(manager, userId, id(query.id)), 'NOTE_NOT_FOUND', 'Comment'))]);
      case 'collaborators': {
        found(await this.reads.project(manager, userId, id(query.project_id)), 'PROJECT_NOT_FOUND', 'Project');
        const { rows, hasMore } = await this.reads.collaborators(manager, userId, id(query.project_id), query.page);
        return answer(query, rows, hasMore);
      }
      case 'project_invitations': {
        const projectId = id(query.project_id);
        await this.requireProjectRead(manager, userId, projectId, query.resource);
        return answer(query, await this.reads.projectInvitations(manager, projectId));
      }
      case 'user':
        return answer(query, [await this.currentUser(manager, userId, origin)]);
      case 'productivity_stats':
        return answer(query, [await this.productivity.stats(manager, userId)]);
      case 'archived_projects_count':
        if (query.workspace_id !== undefined) return answer(query, [{ count: await this.workspaceQueries.archivedProjectCount(manager, userId, id(query.workspace_id)) }]);
        return answer(query, [{ count: await this.reads.archivedProjectCount(manager, userId) }]);
      case 'project_full':
        return answer(query, [await this.projectFull(manager, userId, id(query.id))]);
      case 'project_joined':
        return answer(query, [await this.projectJoined(manager, userId, id(query.id))]);
      case 'id_mappings': {
        const ids = await this.reads.visibleIds(manager, userId, query.object, query.ids.map(id));
        return answer(query, ids.map((known) => ({ old_id: known, new_id: known })));
      }
      case 'role_permissions':
        // Answered by ObjectsService from the command policies before any account data is read.
        throw new Error('role_permissions is not an account query');
    }
  }

  /**
   * The read policy's decision on a read of one named project that a project read group narrows
   * (its open invitations), from how the reader stands there (their role, a workspace admin's
   * raised, and in a workspace project their place in the workspace): PROJECT_NOT_FOUND for a
   * non-member, as for a project that does not exist; FORBIDDEN for a member who does not see it.
   */
  private async requireProjectRead(manager: EntityManager, userId: string, projectId: string, resource: 'project_invitations'): Promise<void> {
    const visible = await this.reads.project(manager, userId, projectId);
    const standing = visible ? ((await this.members.effectiveAccessOf(manager, projectId, userId)) ?? null) : null;
    const decision = readDecision(resource, { projectStanding: standing });
    if (decision === 'not_found' || standing === null) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { project_id: projectId });
    if (decision !== 'ok') {
      throw new DomainError('FORBIDDEN', `Your role in this project (${standing.role}) does not allow seeing its ${readPolicyOf(resource).project}`, { project_id: projectId, role: standing.role });
    }
  }

  /** A task list (`tasks`, `tasks_by_filter`) in the api/v1 shape, with its labels' ids when asked. */
  async taskList(manager: EntityManager, userId: string, query: TaskListQuery, tempIds: Readonly<Record<string, string>>): Promise<QueryResult<TaskListQuery['resource']>> {
    const { id, optionalId } = tempIdResolver(tempIds);
    let listed;
    if (query.resource === 'tasks') {
      const filter = {
        ids: query.ids?.map(id),
        projectId: optionalId(query.project_id),
        sectionId: optionalId(query.section_id),
        parentId: optionalId(query.parent_id),
        label: query.label,
      };
      listed = await this.reads.tasks(manager, userId, filter, query.page);
    } else {
      listed = await this.filters.find(manager, userId, query.filter, query.lang, query.page);
    }
    const tasks = await this.writeTasks(manager, userId, listed.rows);
    return { ...answer(query, tasks, listed.hasMore), ...(await this.labelIds(manager, userId, query, tasks)) };
  }

  /** With `label_ids`: lower-cased name -> id of the personal labels the tasks carry (REST v1 writes `label_ids`). */
  private async labelIds(manager: EntityManager, userId: string, query: { readonly label_ids?: boolean }, tasks: readonly ApiTask[]): Promise<{ labelIds?: Record<string, string> }> {
    if (query.label_ids !== true) return {};
    return { labelIds: await this.reads.labelIdsByName(manager, userId, tasks.flatMap((task) => task.labels)) };
  }

  /** A project and what it holds, read together: active tasks, active sections, people, its own comments. */
  private async projectFull(manager: EntityManager, userId: string, projectId: string): Promise<ApiProjectFull> {
    const project = found(await this.reads.project(manager, userId, projectId), 'PROJECT_NOT_FOUND', 'Project');
    const [projects, tasks, sections, notes, collaborators, commentsCount] = await Promise.all([
      this.writeProjects(manager, [project]),
      this.reads.tasks(manager, userId, { projectId }, undefined).then(({ rows }) => this.writeTasks(manager, userId, rows)),
      this.reads.sections(manager, userId, { projectId }, undefined),
      this.reads.comments(manager, userId, { projectId }, undefined),
      this.reads.projectPeople(manager, userId, projectId),
      this.reads.projectCommentTotal(manager, userId, projectId),
    ]);
    return {
      project: projects[0],
      comments_count: commentsCount,
      tasks,
      sections: sections.rows.map((row) => syncApiV1Writers.section(row)),
      collaborators,
      notes: notes.rows.map(writeNote),
    };
  }

  /**
   * What `projects/{id}/join` answers (sdk 17 joinProject): the project as a workspace project,
   * its active tasks (`tasks`, and `items` as the sync API names them), sections, comments
   * (`comments` and `notes`), its people and their states, its folder and the reader's visible
   * sub-projects. Read after project_join, so the reader is a collaborator.
   */
  private async projectJoined(manager: EntityManager, userId: string, projectId: string): Promise<ApiProjectJoined> {
    const full = await this.projectFull(manager, userId, projectId);
    const project = full.project;
    const states = await this.workspaceReads.projectStates(manager, projectId);
    const folderId = typeof project.folder_id === 'string' ? project.folder_id : undefined;
    const [collaborators, folder, subprojects] = await Promise.all([
      this.workspaceReads.users(manager, states.map((state) => state.user_id)),
      folderId === undefined ? undefined : this.workspaceReads.folder(manager, userId, folderId),
      this.workspaceReads.subprojects(manager, userId, projectId).then((rows) => this.writeProjects(manager, rows)),
    ]);
    return {
      project,
      tasks: full.tasks,
      items: full.tasks,
      sections: full.sections,
      comments: full.notes,
      notes: full.notes,
      collaborators,
      collaborator_states: states.map(({ workspace_role, ...state }) => (workspace_role === null ? state : { ...state, workspace_role })),
      folder: folder ? writeFolder(folder) : null,
      subprojects,
    };
  }

  private async writeTasks(manager: EntityManager, userId: string, rows: readonly ItemRow[]): Promise<ApiTask[]> {
    const counts = await this.notes.countByTask(
      manager,
      userId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => {
      // The rows are this read's own: counted in place rather than copied per task.
      row.note_count = counts.get(row.id) ?? 0;
      return syncApiV1Writers.item(row);
    });
  }

  private async writeProjects(manager: EntityManager, rows: readonly Project[]): Promise<ApiProject[]> {
    const counts = await this.reads.projectCommentCounts(
      manager,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...syncApiV1Writers.project(row), note_count: counts.get(row.id) ?? 0 }));
  }

  /**
   * `GET /api/v1/user`: the sync user plus the completion counters the SDK requires; its
   * `websocket_url` is the push channel at the caller's origin, as the sync `user` object's, and
   * so are its avatar URLs.
   */
  private async currentUser(manager: EntityManager, userId: string, origin: string | undefined): Promise<ApiUser> {
    const profile = found(await this.profiles.find(manager, userId), 'USER_NOT_FOUND', 'User');
    const [completed, websocketUrl] = await Promise.all([this.reads.completedCounts(manager, userId, profile.timezone), this.push.websocketUrl(userId, origin)]);
    return { ...syncApiV1Writers.user(profile, websocketUrl, this.push.originFor(origin)), completed_count: completed.total, completed_today: completed.today };
  }
}
