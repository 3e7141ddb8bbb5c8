import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type MembershipChanges, type ProjectViewOptionsDefaults, type ViewOptions, ViewOptionsRepository } from '@doable/sync-domain';

/** The user's saved view options. */
@Injectable()
export class ViewOptionsSource implements ResourceSource<'view_options'> {
  readonly type = 'view_options' as const;

  constructor(private readonly views: ViewOptionsRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<ViewOptions[]> {
    return this.views.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<ViewOptions[]> {
    return this.views.listChangedSince(manager, userId, version);
  }
}

/** The view defaults of the projects the user sees. */
@Injectable()
export class ProjectViewOptionsDefaultsSource implements ResourceSource<'project_view_options_defaults'> {
  readonly type = 'project_view_options_defaults' as const;

  constructor(private readonly views: ViewOptionsRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<ProjectViewOptionsDefaults[]> {
    return this.views.listActiveDefaults(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<ProjectViewOptionsDefaults[]> {
    return this.views.listDefaultsChangedSince(manager, userId, version, memberships);
  }
}
