import { Injectable } from '@nestjs/common';
import { type Args, fieldsSent, nullableId, optionalBoolean, optionalId, optionalString, requiredId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import { type RestCommand, single } from '../objects/sync-objects.client';
import type { OperationHandler, RestResource } from './operation';
import { projectPermissions } from './project-permissions';
import { noContent, ok, ResourceKit } from './resource-kit';

/** A colour: a name (REST v2, api/v1) or an integer id (REST v1); the sync commands take both. */
function colorArg(body: Args): unknown {
  const color = body['color'];
  return typeof color === 'number' ? color : optionalString(body, 'color', 32);
}

/** Project fields a create and an update share; REST v1 spells `favorite` without the `is_`. */
function projectFields(call: RestCall): Record<string, unknown> {
  const body = call.body;
  const fields: Record<string, unknown> = {
    name: optionalString(body, 'name', 1024),
    color: colorArg(body),
    is_favorite: call.surface === 'rest-v1' ? optionalBoolean(body, 'favorite') : optionalBoolean(body, 'is_favorite'),
    view_style: optionalString(body, 'view_style', 16),
    description: call.surface === 'rest-api-v1' ? optionalString(body, 'description') : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Projects on every surface, plus archive, archived, search, collaborators and (Doable's own) invitations on api/v1. */
@Injectable()
export class ProjectsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'projects.list': (call) => this.list(call, {}),
    'projects.archived': (call) => this.list(call, { archived: true }),
    'projects.search': (call) => this.list(call, { search: requiredString(call.query, 'query', 1024) }),
    'projects.get': (call) => this.kit.one(call, { resource: 'project', id: call.params['id'] }),
    'projects.create': (call) => {
      requiredString(call.body, 'name');
      // REST v1 also accepts the deprecated `parent`.
      const parentId = nullableId(call.body, 'parent_id') ?? (call.surface === 'rest-v1' ? nullableId(call.body, 'parent') : undefined) ?? undefined;
      // api/v1 (sdk 17 addProject's workspaceId) makes the project in a workspace: project_add
      // decides who may (a non-member's workspace is not found), never a silent personal project.
      const workspaceId = call.surface === 'rest-api-v1' ? nullableId(call.body, 'workspace_id') : undefined;
      const args = { ...projectFields(call), ...(parentId === undefined ? {} : { parent_id: parentId }), ...(workspaceId === undefined || workspaceId === null ? {} : { workspace_id: workspaceId }) };
      return this.kit.created(call, { type: 'project_add', args }, 'project', (id) => ({ resource: 'project', id }));
    },
    'projects.update': (call) => {
      const id = call.params['id'];
      return this.kit.updated(call, [{ type: 'project_update', args: { id, ...projectFields(call) } }], { resource: 'project', id });
    },
    'projects.delete': (call) => this.command(call, 'project_delete'),
    'projects.archive': (call) => this.lifecycle(call, 'project_archive'),
    'projects.unarchive': (call) => this.lifecycle(call, 'project_unarchive'),
    'projects.archived_count': async (call) => {
      // With workspace_id: that workspace's archived projects the caller sees (404 for a non-member).
      const workspaceId = optionalId(call.query, 'workspace_id');
      const reply = await this.kit.objects.read(call, { resource: 'archived_projects_count', ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }) });
      return ok({ count: reply.objects[0]?.count ?? 0 });
    },
    'projects.permissions': (call) => projectPermissions(this.kit.objects, call),
    'projects.full': (call) => this.full(call),
    'projects.join': (call) => this.join(call),
    'projects.move_to_workspace': async (call) => {
      const projectId = requiredId(call.body, 'project_id');
      const args = { project_id: projectId, workspace_id: requiredId(call.body, 'workspace_id'), ...fieldsSent(call.body, ['is_invite_only', 'folder_id', 'access']) };
      return await this.move(call, { type: 'project_move_to_workspace', args });
    },
    'projects.move_to_personal': async (call) => this.move(call, { type: 'project_move_to_personal', args: { project_id: requiredId(call.body, 'project_id') } }),
    'projects.collaborators': (call) => this.kit.list(call, { resource: 'collaborators', project_id: call.params['id'] }),
    // Doable's own: the whole list (a project's open invitations are bounded by its max_collaborators).
    'projects.invitations': async (call) => ok((await this.kit.objects.read(call, { resource: 'project_invitations', project_id: call.params['id'] })).objects),
  };

  private list(call: RestCall, options: { archived?: boolean; search?: string }) {
    return this.kit.list(call, { resource: 'projects', ...options });
  }

  /** `projects/{id}/full`: the project with its tasks, sections, people and comments, each in api/v1 shape. */
  private async full(call: RestCall) {
    const full = await this.kit.objects.readOne(call, { resource: 'project_full', id: call.params['id'] });
    const dialect = this.kit.written(call);
    const context = this.kit.context(call);
    return ok({
      project: dialect.project(full.project, context),
      comments_count: full.comments_count,
      tasks: full.tasks.map((task) => dialect.task(task, context)),
      sections: full.sections.map((section) => dialect.section(section)),
      collaborators: full.collaborators,
      notes: full.notes.map((note) => dialect.comment(note)),
    });
  }

  /**
   * `projects/{id}/join` (sdk 17 joinProject): project_join (the sync command decides who may
   * join what: PROJECT_NOT_JOINABLE for a personal project), then the project with what it holds.
   */
  private async join(call: RestCall) {
    const id = call.params['id'];
    const reply = await this.kit.objects.change(call, [{ type: 'project_join', args: { project_id: id } }], { resource: 'project_joined', id });
    const joined = single(reply);
    const dialect = this.kit.written(call);
    const context = this.kit.context(call);
    const tasks = joined.tasks.map((task) => dialect.task(task, context));
    const comments = joined.comments.map((note) => dialect.comment(note));
    return ok({
      project: dialect.project(joined.project, context),
      tasks,
      items: tasks,
      sections: joined.sections.map((section) => dialect.section(section)),
      comments,
      notes: comments,
      collaborators: joined.collaborators,
      collaborator_states: joined.collaborator_states,
      folder: joined.folder,
      subprojects: joined.subprojects.map((project) => dialect.project(project, context)),
    });
  }

  /** move_to_workspace / move_to_personal: the command, then `{project}` (what sdk 17 reads). */
  private async move(call: RestCall, command: RestCommand) {
    const projectId = String(command.args['project_id']);
    const reply = await this.kit.objects.change(call, [command], { resource: 'project', id: projectId });
    return ok({ project: this.kit.written(call).project(single(reply), this.kit.context(call)) });
  }

  private async command(call: RestCall, type: string) {
    await this.kit.objects.change(call, [{ type, args: { id: call.params['id'] } }]);
    return noContent();
  }

  private lifecycle(call: RestCall, type: string) {
    const id = call.params['id'];
    return this.kit.changed(call, [{ type, args: { id } }], { resource: 'project', id });
  }
}
