import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Label } from './label.model';
import { LabelRepository } from './label.repository';
import { LABEL_WRITERS } from './label.writers';

/** Personal labels only: shared labels live on tasks and never appear in this list. */
@Injectable()
export class LabelSource implements ResourceSource<Label> {
  readonly type = 'labels' as const;

  constructor(private readonly labels: LabelRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Label[]> {
    return this.labels.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Label[]> {
    return this.labels.listChangedSince(manager, userId, version);
  }

  render(rows: readonly Label[], dialect: SyncDialect): Record<string, unknown> {
    return { labels: rows.map(LABEL_WRITERS[dialect]) };
  }
}
