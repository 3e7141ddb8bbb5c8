import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Collaboration, CollaboratorRepository, type MembershipChanges } from '@doable/sync-domain';
import type { ResourceSource } from './resource-source';

/**
 * The `collaborators` resource: one entry holding both of its keys (`collaborators` and
 * `collaborator_states`), read together since the users are those the states name.
 */
@Injectable()
export class CollaboratorSource implements ResourceSource<'collaborators'> {
  readonly type = 'collaborators' as const;

  constructor(private readonly collaborators: CollaboratorRepository) {}

  async listActive(manager: EntityManager, userId: string): Promise<Collaboration[]> {
    return [await this.collaborators.all(manager, userId)];
  }

  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Collaboration[]> {
    return [await this.collaborators.changedSince(manager, userId, version, memberships)];
  }
}
