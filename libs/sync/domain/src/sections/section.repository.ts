import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { SECTION_COLUMNS, SECTION_WIRE_COLUMNS, type Section, type WireSection } from './section.model';
import { asLeftTombstones, changedSinceCondition, changedSinceParams, type MembershipChanges, inVisibleProjects, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

/** A full sync's sections: the active ones of the projects the user can see. */
const ACTIVE_SECTIONS = `FROM sync.sections WHERE ${inVisibleProjects('project_id')} AND NOT is_deleted AND NOT is_archived ORDER BY project_id, section_order, id`;

/** Sections of the projects a user can see. Every method runs on the caller's transaction. */
@Injectable()
export class SectionRepository {
  async insert(manager: EntityManager, section: { userId: string; projectId: string; name: string; sectionOrder: number | null }, version: string): Promise<Section> {
    const [row] = await manager.query<Section[]>(
      `INSERT INTO sync.sections (user_id, project_id, name, section_order, version)
       VALUES ($1, $2, $3, COALESCE($4, (SELECT COALESCE(max(section_order), 0) + 1 FROM sync.sections WHERE project_id = $2 AND NOT is_deleted)), $5)
       RETURNING ${SECTION_COLUMNS}`,
      [section.userId, section.projectId, section.name, section.sectionOrder, version],
    );
    return row;
  }

  async findVisibleForUpdate(manager: EntityManager, userId: string, sectionId: string): Promise<Section | undefined> {
    const rows = await manager.query<Section[]>(
      `SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE id = $2 AND NOT is_deleted AND project_id IN (${VISIBLE_PROJECTS}) FOR UPDATE`,
      [userId, sectionId],
    );
    return rows[0];
  }

  async update(
    manager: EntityManager,
    sectionIds: readonly string[],
    changes: Partial<{ name: string; is_collapsed: boolean; section_order: number; project_id: string; is_archived: boolean; archived_at: Date | null; is_deleted: boolean }>,
    version: string,
  ): Promise<void> {
    await updateVersioned(manager, 'sync.sections', sectionIds, changes, version);
  }

  async idsInProjects(manager: EntityManager, projectIds: readonly string[]): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.sections WHERE project_id = ANY($1::bigint[]) AND NOT is_deleted`, [projectIds]);
    return rows.map((row) => row.id);
  }

  /** A project's sections in use (not archived, not deleted): what max_sections counts. */
  async countActiveInProject(manager: EntityManager, projectId: string): Promise<number> {
    const [{ active }] = await manager.query<Array<{ active: number }>>(
      `SELECT count(*)::int AS active FROM sync.sections WHERE project_id = $1 AND NOT is_archived AND NOT is_deleted`,
      [projectId],
    );
    return active;
  }

  async nextOrder(manager: EntityManager, projectId: string): Promise<number> {
    const [{ next }] = await manager.query<Array<{ next: number }>>(
      `SELECT COALESCE(max(section_order), 0) + 1 AS next FROM sync.sections WHERE project_id = $1 AND NOT is_deleted`,
      [projectId],
    );
    return next;
  }

  /** Active sections for a full sync (archived ones are listed elsewhere). */
  async listActive(manager: EntityManager, userId: string): Promise<Section[]> {
    return manager.query<Section[]>(`SELECT ${SECTION_COLUMNS} ${ACTIVE_SECTIONS}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireSection[]> {
    return manager.query<WireSection[]>(`SELECT ${SECTION_WIRE_COLUMNS} ${ACTIVE_SECTIONS}`, [userId]);
  }

  /** Changed after a version; the active sections of projects joined since, tombstones for those of projects left. */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<Section[]> {
    const rows = await manager.query<Section[]>(
      `SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE ${changedSinceCondition(memberships, 'NOT is_deleted AND NOT is_archived')} ORDER BY id`,
      changedSinceParams(userId, version, memberships),
    );
    return asLeftTombstones(rows, memberships.left);
  }

}
