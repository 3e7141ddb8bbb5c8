import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type MembershipChanges, type Section, SectionRepository, type WireSection } from '@doable/sync-domain';

@Injectable()
export class SectionSource implements ResourceSource<'sections'> {
  readonly type = 'sections' as const;

  constructor(private readonly sections: SectionRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's sections out. */
  listActive(manager: EntityManager, userId: string): Promise<WireSection[]> {
    return this.sections.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Section[]> {
    return this.sections.listChangedSince(manager, userId, version, memberships);
  }
}
