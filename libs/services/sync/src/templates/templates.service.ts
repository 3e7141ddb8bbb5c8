import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { readScopes, requestIdUuid } from '@doable/contracts-sync';
import { DomainError, domainErrorFromBody } from '@doable/shared-errors';
import { CpuPool, Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { syncApiV1Writers } from '@doable/sync-dialects';
import { CommandExecutor, firstRefusal, mayRead } from '@doable/sync-engine';
import { PlanGate, PlanLimitsRepository, type Project } from '@doable/sync-domain';
import { TEMPLATE_IMPORT_COMMAND } from './template-import.command';
import { TemplateReadsRepository } from './template-reads.repository';
import { templateTreeOf } from './template-tree';
import { type TemplateTree, writeTodoistCsv } from './todoist-csv';
import { TODOIST_CSV_TASK } from './todoist-csv.task';

/** The base of the URLs export_as_url answers (the PUBLIC_URL setting, as the rest service reads it). */
export const TEMPLATES_PUBLIC_URL = Symbol('TEMPLATES_PUBLIC_URL');

const scalar = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

function text(params: Record<string, unknown>, name: string): string | null {
  const value = scalar(params[name]);
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${name}`, { argument: name });
  return value;
}

function required(params: Record<string, unknown>, name: string): string {
  const value = text(params, name);
  if (value === null) throw new DomainError('ARGUMENT_MISSING', `Required argument is missing: ${name}`, { argument: name });
  return value;
}

const isTrue = (value: unknown): boolean => ['true', '1', 1, true].includes(scalar(value) as string | number | boolean);

/** The file a project exports as: its name, made safe for a Content-Disposition header and a file system. */
export function templateFileName(projectName: string): string {
  const safe = projectName.replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim().slice(0, 100);
  return `${safe || 'project'}.csv`;
}

/**
 * The most rows (tasks, sections, comments) one import may hold. An import is one command, so one
 * transaction: measured at about 5-10 ms a row on the reference machine, this keeps it within a
 * few seconds, well inside the request's deadline, and short for everyone sharing the database
 * (the embedded database runs one statement at a time). Todoist itself advises 100-150 tasks.
 */
export const MAX_IMPORT_ROWS = 600;

export interface TemplateFile {
  readonly fileName: string;
  readonly csv: string;
}

/**
 * Project templates in the Todoist CSV format (todoist-csv.ts): export a project, import one
 * into a project or as a new project. Every path is the plan's `templates` feature. An import
 * is ONE internal command (template_import) run by the command executor: the same checks,
 * limits and events as a client's commands, one savepoint (all or nothing), and idempotent by
 * the request's X-Request-Id.
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly database: Database,
    private readonly executor: CommandExecutor,
    private readonly reads: TemplateReadsRepository,
    private readonly plans: PlanLimitsRepository,
    private readonly pool: CpuPool,
  ) {}

  /** The file's tree, parsed on the CPU pool (a megabyte of CSV is not the event loop's work). */
  private parse(file: string): Promise<TemplateTree> {
    return this.pool.run<TemplateTree>(TODOIST_CSV_TASK, { text: file, maxRows: MAX_IMPORT_ROWS });
  }

  /** `templates/export_as_file`, `GET /api/v1/templates/file`: the project's CSV. */
  async exportFile(principal: Principal, params: Record<string, unknown>): Promise<TemplateFile> {
    const relativeDates = isTrue(params['use_relative_dates']);
    return this.database.readSnapshot(async (manager) => {
      const project = await this.exportable(manager, principal, params);
      const content = await this.reads.content(manager, project);
      return { fileName: templateFileName(project.name), csv: writeTodoistCsv(templateTreeOf(content, { relativeDates })) };
    });
  }

  /**
   * `templates/export_as_url`, `GET /api/v1/templates/url`: `{file_name, file_url}`. The URL is
   * this project's export_as_file on the same API, fetched with the same bearer token (as
   * backups are downloaded): nothing is stored and no unauthenticated link to a user's data
   * exists. `fileEndpoint` is the dialect's file endpoint under PUBLIC_URL.
   */
  async exportUrl(principal: Principal, params: Record<string, unknown>, fileEndpoint: string): Promise<{ file_name: string; file_url: string }> {
    const project = await this.database.readSnapshot((manager) => this.exportable(manager, principal, params));
    const query = new URLSearchParams({ project_id: project.id });
    if (isTrue(params['use_relative_dates'])) query.set('use_relative_dates', 'true');
    return { file_name: templateFileName(project.name), file_url: `${fileEndpoint}?${query.toString()}` };
  }

  /** The project an export names, once the token may read and the plan has templates. */
  private async exportable(manager: EntityManager, principal: Principal, params: Record<string, unknown>): Promise<Project> {
    if (!mayRead(principal, 'templates')) throw new DomainError('FORBIDDEN', 'This token may not read data', { required_scopes: readScopes('templates') });
    const projectId = required(params, 'project_id');
    await this.requirePlan(manager, principal.userId);
    const project = await this.reads.project(manager, principal.userId, projectId);
    if (!project) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
    return project;
  }

  /** Imports into an existing project; answers the project id. */
  async importIntoProject(principal: Principal, params: Record<string, unknown>, requestId: string | null): Promise<string> {
    const projectId = required(params, 'project_id');
    const file = required(params, 'file');
    const tree = await this.parse(file);
    await this.beforeImport(principal, async (manager) => {
      if (!(await this.reads.project(manager, principal.userId, projectId))) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
    });
    return this.runImport(principal, { project_id: projectId, tree }, requestId);
  }

  /** Makes a project named `name` (else `file_name` without `.csv`) from a template; answers its id. */
  async createProject(principal: Principal, params: Record<string, unknown>, requestId: string | null): Promise<string> {
    const file = required(params, 'file');
    const name = text(params, 'name') ?? text(params, 'file_name')?.replace(/\.csv$/i, '') ?? null;
    if (name === null || name.trim() === '') throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: name', { argument: 'name' });
    const workspaceId = text(params, 'workspace_id');
    const tree = await this.parse(file);
    await this.beforeImport(principal, () => Promise.resolve());
    return this.runImport(principal, { new_project: { name: name.trim(), ...(workspaceId ? { workspace_id: workspaceId } : {}) }, tree }, requestId);
  }

  /** api/v1 `import_into_project_from_template_id`: there is no template gallery, so no id is known. */
  async importFromTemplateId(principal: Principal, params: Record<string, unknown>): Promise<never> {
    const projectId = required(params, 'project_id');
    const templateId = required(params, 'template_id');
    await this.beforeImport(principal, async (manager) => {
      if (!(await this.reads.project(manager, principal.userId, projectId))) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
    });
    throw new DomainError('TEMPLATE_NOT_FOUND', 'Template not found', { argument: 'template_id', template_id: templateId.slice(0, 100) });
  }

  /**
   * What api/v1 answers an import with (sdk 17 ImportTemplateResponse): the project the template
   * went into and its active sections, tasks and comments after the import, in the API v1 shapes.
   */
  async importResponse(userId: string, projectId: string): Promise<Record<string, unknown>> {
    return this.database.readSnapshot(async (manager) => {
      const project = await this.reads.project(manager, userId, projectId);
      if (!project) throw new DomainError('PROJECT_NOT_FOUND', 'The project this import went into no longer exists');
      const content = await this.reads.content(manager, project);
      const noteCounts = new Map<string, number>();
      for (const note of content.notes) if (note.item_id !== null) noteCounts.set(note.item_id, (noteCounts.get(note.item_id) ?? 0) + 1);
      return {
        status: 'ok',
        template_type: 'csv',
        project_id: project.id,
        projects: [syncApiV1Writers.project(project)],
        sections: content.sections.map((section) => syncApiV1Writers.section(section)),
        tasks: content.tasks.map((task) => ({ ...syncApiV1Writers.item(task), note_count: noteCounts.get(task.id) ?? 0 })),
        comments: content.notes.map((note) => syncApiV1Writers.note(note)),
      };
    });
  }

  /** Scope and plan, checked before anything is read or written (a refused import writes nothing). */
  private async beforeImport(principal: Principal, check: (manager: EntityManager) => Promise<void>): Promise<void> {
    this.executor.requirePermitted(principal, TEMPLATE_IMPORT_COMMAND);
    await this.database.readSnapshot(async (manager) => {
      await this.requirePlan(manager, principal.userId);
      await check(manager);
    });
  }

  private requirePlan(manager: EntityManager, userId: string): Promise<void> {
    return new PlanGate(manager, this.plans, userId).requireFeature('templates');
  }

  /**
   * With a request id (X-Request-Id) the import is idempotent: its uuid is `rest:<id>`, so a
   * replay answers what the first run did (its project, or its refusal) and adds nothing again.
   */
  private async runImport(principal: Principal, args: Record<string, unknown>, requestId: string | null): Promise<string> {
    const uuid = requestId === null ? randomUUID() : requestIdUuid(requestId);
    const key = `template_import:${uuid}`;
    const results = await this.executor.runInternal(principal, { type: TEMPLATE_IMPORT_COMMAND, uuid, temp_id: key, args });
    const status = results.syncStatus[uuid];
    const refusal = status === undefined ? undefined : firstRefusal(status);
    if (refusal) throw domainErrorFromBody(refusal);
    const projectId = results.tempIdMapping[key];
    if (projectId === undefined) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'X-Request-Id was already used by a request that was not this import', { argument: 'X-Request-Id' });
    }
    return projectId;
  }
}
