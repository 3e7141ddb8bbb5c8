import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type Filter, FilterRepository } from '@doable/sync-domain';

@Injectable()
export class FilterSource implements ResourceSource<'filters'> {
  readonly type = 'filters' as const;

  constructor(private readonly filters: FilterRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Filter[]> {
    return this.filters.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Filter[]> {
    return this.filters.listChangedSince(manager, userId, version);
  }
}
