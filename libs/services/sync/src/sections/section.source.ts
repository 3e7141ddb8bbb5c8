import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DIALECT_WRITERS } from '../dialects/dialect-writers';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Section } from './section.model';
import { SectionRepository } from './section.repository';

@Injectable()
export class SectionSource implements ResourceSource<Section> {
  readonly type = 'sections' as const;

  constructor(private readonly sections: SectionRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Section[]> {
    return this.sections.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Section[]> {
    return this.sections.listChangedSince(manager, userId, version);
  }

  render(rows: readonly Section[], dialect: SyncDialect): Record<string, unknown> {
    return { sections: rows.map((row) => DIALECT_WRITERS[dialect].section(row)) };
  }
}
