import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DIALECT_WRITERS } from '../dialects/dialect-writers';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Item } from './item.model';
import { ItemRepository } from './item.repository';

@Injectable()
export class ItemSource implements ResourceSource<Item> {
  readonly type = 'items' as const;

  constructor(private readonly items: ItemRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Item[]> {
    return this.items.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Item[]> {
    return this.items.listChangedSince(manager, userId, version);
  }

  /** Tasks, and the daily-agenda order of those that have one. */
  render(rows: readonly Item[], dialect: SyncDialect): Record<string, unknown> {
    return {
      items: rows.map((row) => DIALECT_WRITERS[dialect].item(row)),
      day_orders: Object.fromEntries(rows.filter((item) => item.day_order >= 0 && !item.is_deleted).map((item) => [item.id, item.day_order])),
    };
  }
}
