import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type Label, LabelRepository, type WireLabel } from '@doable/sync-domain';

/** Personal labels only: shared labels live on tasks and never appear in this list. */
@Injectable()
export class LabelSource implements ResourceSource<'labels'> {
  readonly type = 'labels' as const;

  constructor(private readonly labels: LabelRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's labels out. */
  listActive(manager: EntityManager, userId: string): Promise<WireLabel[]> {
    return this.labels.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Label[]> {
    return this.labels.listChangedSince(manager, userId, version);
  }
}
