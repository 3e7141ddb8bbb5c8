import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type Filter, FilterRepository, type WireFilter } from '@doable/sync-domain';

@Injectable()
export class FilterSource implements ResourceSource<'filters'> {
  readonly type = 'filters' as const;

  constructor(private readonly filters: FilterRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's filters out. */
  listActive(manager: EntityManager, userId: string): Promise<WireFilter[]> {
    return this.filters.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Filter[]> {
    return this.filters.listChangedSince(manager, userId, version);
  }
}
