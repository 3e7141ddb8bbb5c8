import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Note } from './note.model';
import { NoteRepository } from './note.repository';
import { NOTE_WRITERS } from './note.writer';

/** The `notes` resource type: task comments in `notes`, project comments in `project_notes`. */
@Injectable()
export class NoteSource implements ResourceSource<Note> {
  readonly type = 'notes' as const;

  constructor(private readonly notes: NoteRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Note[]> {
    return this.notes.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Note[]> {
    return this.notes.listChangedSince(manager, userId, version);
  }

  render(rows: readonly Note[], dialect: SyncDialect): Record<string, unknown> {
    const write = NOTE_WRITERS[dialect];
    return {
      notes: rows.filter((row) => row.item_id !== null).map(write),
      project_notes: rows.filter((row) => row.item_id === null).map(write),
    };
  }
}
