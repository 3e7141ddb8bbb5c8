import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type MembershipChanges, type Project, ProjectRepository, type WireProject } from '@doable/sync-domain';

@Injectable()
export class ProjectSource implements ResourceSource<'projects'> {
  readonly type = 'projects' as const;

  constructor(private readonly projects: ProjectRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's projects out. */
  listActive(manager: EntityManager, userId: string): Promise<WireProject[]> {
    return this.projects.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Project[]> {
    return this.projects.listChangedSince(manager, userId, version, memberships);
  }
}
