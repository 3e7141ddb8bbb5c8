import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from '../read/resource-source';
import { type CompletedInfo, CompletedInfoRepository } from './completed-info.repository';

/**
 * The `completed_info` resource: how much is completed under each project (and how many of its
 * sections are archived), each section and each parent task, so clients can show "N completed"
 * without loading history. Both dialects write it alike (client-schemas › CompletedInfoSchema).
 */
@Injectable()
export class CompletedInfoSource implements ResourceSource<CompletedInfo> {
  readonly type = 'completed_info' as const;

  constructor(private readonly counts: CompletedInfoRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<CompletedInfo[]> {
    return this.counts.all(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<CompletedInfo[]> {
    return this.counts.touchedSince(manager, userId, version);
  }

  render(rows: readonly CompletedInfo[]): Record<string, unknown> {
    return {
      completed_info: rows.map((row) => {
        switch (row.kind) {
          case 'project':
            return { project_id: row.id, completed_items: row.completedItems, archived_sections: row.archivedSections };
          case 'section':
            return { section_id: row.id, id: row.id, completed_items: row.completedItems };
          case 'item':
            return { item_id: row.id, id: row.id, completed_items: row.completedItems };
        }
      }),
    };
  }
}
