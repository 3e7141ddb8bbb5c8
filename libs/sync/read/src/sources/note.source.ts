import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type MembershipChanges, type Note, NoteRepository } from '@doable/sync-domain';

/** The `notes` resource type: task comments in `notes`, project comments in `project_notes`. */
@Injectable()
export class NoteSource implements ResourceSource<'notes'> {
  readonly type = 'notes' as const;

  constructor(private readonly notes: NoteRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Note[]> {
    return this.notes.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Note[]> {
    return this.notes.listChangedSince(manager, userId, version, memberships);
  }
}
