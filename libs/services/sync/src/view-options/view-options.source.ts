import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { ProjectViewOptionsDefaults, ViewOptions } from './view-options.model';
import { ViewOptionsRepository } from './view-options.repository';
import { PROJECT_VIEW_DEFAULTS_WRITERS, VIEW_OPTIONS_WRITERS } from './view-options.writers';

/** The user's saved view options. */
@Injectable()
export class ViewOptionsSource implements ResourceSource<ViewOptions> {
  readonly type = 'view_options' as const;

  constructor(private readonly views: ViewOptionsRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<ViewOptions[]> {
    return this.views.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<ViewOptions[]> {
    return this.views.listChangedSince(manager, userId, version);
  }

  render(rows: readonly ViewOptions[], dialect: SyncDialect): Record<string, unknown> {
    return { view_options: rows.map(VIEW_OPTIONS_WRITERS[dialect]) };
  }
}

/** The view defaults of the projects the user sees. */
@Injectable()
export class ProjectViewOptionsDefaultsSource implements ResourceSource<ProjectViewOptionsDefaults> {
  readonly type = 'project_view_options_defaults' as const;

  constructor(private readonly views: ViewOptionsRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<ProjectViewOptionsDefaults[]> {
    return this.views.listActiveDefaults(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<ProjectViewOptionsDefaults[]> {
    return this.views.listDefaultsChangedSince(manager, userId, version);
  }

  render(rows: readonly ProjectViewOptionsDefaults[], dialect: SyncDialect): Record<string, unknown> {
    return { project_view_options_defaults: rows.map(PROJECT_VIEW_DEFAULTS_WRITERS[dialect]) };
  }
}
