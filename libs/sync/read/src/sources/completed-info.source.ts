import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type CompletedInfo, CompletedInfoRepository, type MembershipChanges } from '@doable/sync-domain';

/**
 * The `completed_info` resource: how much is completed under each project (and how many of its
 * sections are archived), each section and each parent task, so clients can show "N completed"
 * without loading history.
 */
@Injectable()
export class CompletedInfoSource implements ResourceSource<'completed_info'> {
  readonly type = 'completed_info' as const;

  constructor(private readonly counts: CompletedInfoRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<CompletedInfo[]> {
    return this.counts.all(manager, userId);
  }

  /** Counts touched after the version; all of a project joined since. Left projects need none: their tombstone takes them. */
  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<CompletedInfo[]> {
    return this.counts.touchedSince(manager, userId, version, memberships.joined);
  }
}
