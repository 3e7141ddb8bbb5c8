import { createLogger } from '@doable/shared-logging';
import { OutboxRelay } from '@doable/shared-database';
import { Database } from '@doable/shared-runtime';
import type { Principal, Scope } from '@doable/contracts-common';
import type { ObjectQuery, ObjectQueryResource, ObjectsRequest } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { CompletionStatsRepository, NoteRepository, ProductivityStatsService } from '@doable/sync-domain';
import { TaskFilterService } from '@doable/sync-read';
import type { WorkspaceHarness } from '@doable/sync-engine/testing';
import { ObjectQueryService } from '../src/objects/object-query.service';
import { ObjectReadsRepository } from '../src/objects/object-reads.repository';
import { ObjectsService } from '../src/objects/objects.service';
import { TaskFilterQuery } from '../src/objects/task-filter.query';
import { DialectReads } from '../src/objects/dialect-reads';
import { WorkspaceObjectQueries } from '../src/objects/workspace-object-queries';
import { WorkspaceReadsRepository } from '../src/objects/workspace-reads.repository';
import type { PushTokens } from '../src/push/push-tokens.service';

/** The objects the read walk reads: one of each kind, in a shared personal project and in a workspace. */
export interface WalkObjects {
  readonly project: string;
  readonly task: string;
  readonly section: string;
  readonly comment: string;
  readonly label: string;
  readonly workspace: string;
  readonly folder: string;
  readonly workspaceMember: string;
  readonly invitedEmail: string;
}

/**
 * One query of each object-query resource, over the walk's objects. A `Record` over the query
 * union: a resource added to the contract does not compile until the walk reads it too.
 */
export const WALK_QUERIES: Readonly<Record<ObjectQueryResource, (objects: WalkObjects) => ObjectQuery>> = {
  tasks: ({ project }) => ({ resource: 'tasks', project_id: project }),
  tasks_by_filter: () => ({ resource: 'tasks_by_filter', filter: '#Walked' }),
  task: ({ task }) => ({ resource: 'task', id: task }),
  projects: () => ({ resource: 'projects' }),
  project: ({ project }) => ({ resource: 'project', id: project }),
  sections: ({ project }) => ({ resource: 'sections', project_id: project }),
  section: ({ section }) => ({ resource: 'section', id: section }),
  labels: () => ({ resource: 'labels' }),
  label: ({ label }) => ({ resource: 'label', id: label }),
  shared_labels: () => ({ resource: 'shared_labels' }),
  comments: ({ project }) => ({ resource: 'comments', project_id: project }),
  comment: ({ comment }) => ({ resource: 'comment', id: comment }),
  collaborators: ({ project }) => ({ resource: 'collaborators', project_id: project }),
  project_invitations: ({ project }) => ({ resource: 'project_invitations', project_id: project }),
  user: () => ({ resource: 'user' }),
  productivity_stats: () => ({ resource: 'productivity_stats' }),
  archived_projects_count: ({ workspace }) => ({ resource: 'archived_projects_count', workspace_id: workspace }),
  project_full: ({ project }) => ({ resource: 'project_full', id: project }),
  project_joined: ({ project }) => ({ resource: 'project_joined', id: project }),
  id_mappings: ({ task }) => ({ resource: 'id_mappings', object: 'tasks', ids: [task] }),
  workspaces: () => ({ resource: 'workspaces' }),
  workspace: ({ workspace }) => ({ resource: 'workspace', id: workspace }),
  workspace_users: ({ workspace }) => ({ resource: 'workspace_users', workspace_id: workspace }),
  workspace_invitations: ({ workspace }) => ({ resource: 'workspace_invitations', workspace_id: workspace }),
  workspace_invitation: ({ workspace, invitedEmail }) => ({ resource: 'workspace_invitation', workspace_id: workspace, email: invitedEmail }),
  workspace_plan_details: ({ workspace }) => ({ resource: 'workspace_plan_details', workspace_id: workspace }),
  workspace_membership: ({ workspace, workspaceMember }) => ({ resource: 'workspace_membership', workspace_id: workspace, user_id: workspaceMember }),
  workspace_projects: ({ workspace }) => ({ resource: 'workspace_projects', workspace_id: workspace, archived: false }),
  folders: ({ workspace }) => ({ resource: 'folders', workspace_id: workspace }),
  folder: ({ folder }) => ({ resource: 'folder', id: folder }),
  role_permissions: () => ({ resource: 'role_permissions' }),
};

/** The real read path of the object queries (ObjectsService over ObjectQueryService) on a harness's database. */
export function objectReads(harness: WorkspaceHarness): ObjectsService {
  const r = harness.repositories;
  const workspaceReads = new WorkspaceReadsRepository();
  const filters = new TaskFilterService(r.profiles);
  // The user object's push URL is no access decision: a fixed one stands in for the key store.
  const push = { websocketUrl: () => Promise.resolve('ws://walk.test/push'), originFor: () => 'http://walk.test' } as unknown as PushTokens;
  const queries = new ObjectQueryService(
    new ObjectReadsRepository(),
    r.profiles,
    new TaskFilterQuery(filters),
    new ProductivityStatsService(new CompletionStatsRepository(), r.profiles),
    new NoteRepository(),
    new WorkspaceObjectQueries(workspaceReads, r.workspaces, r.workspaceMembers),
    workspaceReads,
    push,
    r.members,
  );
  const logger = createLogger('test', 'silent');
  const database = new Database(harness.dataSource, 'sync', new OutboxRelay(harness.dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
  return new ObjectsService(harness.executor, queries, new DialectReads(queries, filters), database);
}

export function principal(userId: string, scopes: readonly Scope[]): Principal {
  return { userId, scopes: [...scopes], appId: null, tokenKind: 'oauth' };
}

/** A read's outcome: its objects, or the refusal's code. */
export async function readOutcome(reads: ObjectsService, request: ObjectsRequest): Promise<{ code: string } | { objects: ReadonlyArray<Record<string, unknown>> }> {
  try {
    const { objects } = await reads.handle(request);
    return { objects };
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code };
    throw error;
  }
}
