import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Filter } from './filter.model';
import { FilterRepository } from './filter.repository';
import { FILTER_WRITERS } from './filter.writers';

@Injectable()
export class FilterSource implements ResourceSource<Filter> {
  readonly type = 'filters' as const;

  constructor(private readonly filters: FilterRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Filter[]> {
    return this.filters.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Filter[]> {
    return this.filters.listChangedSince(manager, userId, version);
  }

  render(rows: readonly Filter[], dialect: SyncDialect): Record<string, unknown> {
    return { filters: rows.map(FILTER_WRITERS[dialect]) };
  }
}
