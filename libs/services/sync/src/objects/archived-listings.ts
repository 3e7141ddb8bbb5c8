import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { syncV9Writers } from '@doable/sync-dialects';
import { ObjectReadsRepository } from './object-reads.repository';

const MAX_LIMIT = 200;

function scalar(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function pageArgs(params: Record<string, unknown>): { limit: number; offset: number } {
  const read = (name: string, fallback: number, max: number) => {
    const raw = scalar(params[name]);
    if (raw === undefined || raw === '') return fallback;
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${name}`, { argument: name });
    return value;
  };
  return { limit: Math.max(1, read('limit', 30, MAX_LIMIT)), offset: read('offset', 0, 1_000_000) };
}

/**
 * Sync v9's listings of archived objects: `projects/get_archived` (a plain list of v9 projects)
 * and `archive/sections?project_id=` (a page of v9 sections). Paged with `limit`/`offset`.
 */
@Injectable()
export class ArchivedListings {
  constructor(private readonly reads: ObjectReadsRepository) {}

  async projects(manager: EntityManager, userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const { rows } = await this.reads.projects(manager, userId, { archived: true }, pageArgs(params));
    return rows.map((row) => syncV9Writers.project(row));
  }

  async sections(manager: EntityManager, userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const raw = scalar(params['project_id']);
    if (raw === undefined || raw === '') throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: project_id', { argument: 'project_id' });
    if (typeof raw !== 'string' && typeof raw !== 'number') throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: project_id', { argument: 'project_id' });
    const projectId = String(raw);
    if (!(await this.reads.project(manager, userId, projectId))) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
    const page = pageArgs(params);
    const { rows, hasMore } = await this.reads.sections(manager, userId, { projectId, archived: true }, page);
    return { sections: rows.map((row) => syncV9Writers.section(row)), has_more: hasMore, total: page.offset + rows.length + (hasMore ? 1 : 0) };
  }
}
