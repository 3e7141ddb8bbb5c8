import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { JsonTexts, ResourceSource } from './resource-source';
import { type MembershipChanges, type Note, NoteRepository, type ObjectJsonSql, type WireNote } from '@doable/sync-domain';


/** The `notes` resource type: task comments in `notes`, project comments in `project_notes`. */
@Injectable()
export class NoteSource implements ResourceSource<'notes'> {
  readonly type = 'notes' as const;

  constructor(private readonly notes: NoteRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's comments out. */
  listActive(manager: EntityManager, userId: string): Promise<WireNote[]> {
    return this.notes.listActiveWire(manager, userId);
  }

  /** listActive written by PostgreSQL with the dialect's comment (`notes` and `project_notes`). */
  listActiveJson(manager: EntityManager, userId: string, note: ObjectJsonSql): Promise<JsonTexts | undefined> {
    return this.notes.listActiveJson(manager, userId, note);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Note[]> {
    return this.notes.listChangedSince(manager, userId, version, memberships);
  }
}
