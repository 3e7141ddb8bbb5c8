import { createHash } from 'node:crypto';
import { isObjectId } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { syncV9Writers, writeCompletedInfo } from '@doable/sync-dialects';
import { ArchivedItemsRepository, type ArchiveScope, CompletedInfoRepository, type CompletedPosition, PlanLimitsRepository, requireCompletedTasks } from '@doable/sync-domain';
import { ObjectReadsRepository } from './object-reads.repository';

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 200;

const scalar = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

function idParam(params: Record<string, unknown>, name: string): string | null {
  const raw = scalar(params[name]);
  if (raw === undefined || raw === null || raw === '') return null;
  const value = typeof raw === 'number' ? String(raw) : raw;
  if (typeof value !== 'string' || !isObjectId(value)) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${name}`, { argument: name });
  return value;
}

function limitParam(params: Record<string, unknown>): number {
  const raw = scalar(params['limit']);
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_LIMIT) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: limit', { argument: 'limit' });
  return value;
}

/** Cursors bound to the user, the container and the limit: another's replay is refused, not answered wrongly. */
function binding(userId: string, scope: ArchiveScope, limit: number): string {
  return createHash('sha256').update(JSON.stringify([userId, scope, limit])).digest('base64url').slice(0, 16);
}

function encodeCursor(userId: string, scope: ArchiveScope, limit: number, position: CompletedPosition): string {
  return Buffer.from(JSON.stringify([binding(userId, scope, limit), position.key, position.id]), 'utf8').toString('base64url');
}

function decodeCursor(userId: string, scope: ArchiveScope, limit: number, cursor: unknown): CompletedPosition {
  const invalid = new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid cursor', { argument: 'cursor' });
  if (typeof cursor !== 'string') throw invalid;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parts) || parts.length !== 3 || parts[0] !== binding(userId, scope, limit) || typeof parts[1] !== 'string' || Number.isNaN(Date.parse(parts[1])) || typeof parts[2] !== 'string' || !isObjectId(parts[2])) {
    throw invalid;
  }
  return { key: parts[1], id: parts[2] };
}

/**
 * v9 `archive/items`: the completed tasks under one project, section or task (one of
 * `project_id`, `section_id`, `item_id` is required; a call without is refused, as the public
 * service does), newest first, `{items, total, completed_info, has_more, next_cursor}`. Paged by
 * `cursor` (the previous page's next_cursor) or `last_seen_id` (the last task seen), `limit` ≤ 200.
 * The plan's `completed_tasks` feature, as every listing of the history (completed/completed-plan.ts).
 * `completed_info` counts the completed subtasks of the tasks listed, for those that have some.
 */
@Injectable()
export class ArchivedItems {
  constructor(
    private readonly reads: ObjectReadsRepository,
    private readonly archived: ArchivedItemsRepository,
    private readonly completedInfo: CompletedInfoRepository,
    private readonly plans: PlanLimitsRepository,
  ) {}

  async list(manager: EntityManager, userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    // A listing of the history: the plan's completed_tasks feature, as completed/get_all.
    await requireCompletedTasks(manager, this.plans, userId);
    const scope = await this.scopeOf(manager, userId, params);
    const limit = limitParam(params);
    const cursor = scalar(params['cursor']);
    const lastSeen = idParam(params, 'last_seen_id');
    let after: CompletedPosition | null = null;
    if (cursor !== undefined && cursor !== '') after = decodeCursor(userId, scope, limit, cursor);
    else if (lastSeen !== null) {
      after = await this.archived.positionOf(manager, userId, lastSeen);
      if (!after) throw new DomainError('INVALID_ARGUMENT_VALUE', 'last_seen_id names no completed task', { argument: 'last_seen_id' });
    }
    const rows = await this.archived.page(manager, userId, scope, after, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const hasMore = rows.length > limit && last !== undefined;
    const info = await this.completedInfo.forParents(manager, userId, page.map((item) => item.id));
    return {
      items: page.map((item) => syncV9Writers.item(item)),
      total: await this.archived.total(manager, userId, scope),
      completed_info: info.filter((entry) => entry.completedItems > 0).map((entry) => writeCompletedInfo(entry)),
      has_more: hasMore,
      next_cursor: hasMore ? encodeCursor(userId, scope, limit, { key: new Date(last.completed_at!).toISOString(), id: last.id }) : null,
    };
  }

  private async scopeOf(manager: EntityManager, userId: string, params: Record<string, unknown>): Promise<ArchiveScope> {
    const projectId = idParam(params, 'project_id');
    const sectionId = idParam(params, 'section_id');
    const itemId = idParam(params, 'item_id');
    if (itemId !== null) {
      if (!(await this.reads.task(manager, userId, itemId))) throw new DomainError('ITEM_NOT_FOUND', 'Item not found', { argument: 'item_id' });
      return { parentId: itemId };
    }
    if (sectionId !== null) {
      if (!(await this.reads.section(manager, userId, sectionId))) throw new DomainError('SECTION_NOT_FOUND', 'Section not found', { argument: 'section_id' });
      return { sectionId };
    }
    if (projectId !== null) {
      if (!(await this.reads.project(manager, userId, projectId))) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
      return { projectId };
    }
    throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: project_id, section_id or item_id', { argument: 'project_id' });
  }
}
