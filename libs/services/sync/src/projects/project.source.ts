import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DIALECT_WRITERS } from '../dialects/dialect-writers';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Project } from './project.model';
import { ProjectRepository } from './project.repository';

@Injectable()
export class ProjectSource implements ResourceSource<Project> {
  readonly type = 'projects' as const;

  constructor(private readonly projects: ProjectRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Project[]> {
    return this.projects.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Project[]> {
    return this.projects.listChangedSince(manager, userId, version);
  }

  render(rows: readonly Project[], dialect: SyncDialect): Record<string, unknown> {
    return { projects: rows.map((row) => DIALECT_WRITERS[dialect].project(row)) };
  }
}
