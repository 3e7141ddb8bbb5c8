import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ITEM_WIRE_COLUMNS, type Note, NOTE_COLUMNS, type Project, PROJECT_COLUMNS, type Section, SECTION_COLUMNS, VISIBLE_PROJECTS, type WireItem } from '@doable/sync-domain';

/** What a template is made of: one project's active content, read in four queries whatever its size. */
export interface ProjectContent {
  readonly project: Project;
  readonly sections: Section[];
  readonly tasks: WireItem[];
  /** The project's own comments and its active tasks' comments. */
  readonly notes: Note[];
  /** Names of the people the content names (authors, assignees), by id. */
  readonly names: ReadonlyMap<string, string>;
}

/** The reads behind template export and the import's answer, bounded by the user's visible projects ($1). */
@Injectable()
export class TemplateReadsRepository {
  /** A project the user can see, active (not archived, not deleted). */
  async project(manager: EntityManager, userId: string, projectId: string): Promise<Project | undefined> {
    if (!isObjectId(projectId)) return undefined;
    const rows = await manager.query<Project[]>(
      `SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted AND NOT is_archived`,
      [userId, projectId],
    );
    return rows[0];
  }

  /** Called with a project `project()` found for the user. */
  async content(manager: EntityManager, project: Project): Promise<ProjectContent> {
    const sections = await manager.query<Section[]>(
      `SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE project_id = $1 AND NOT is_deleted AND NOT is_archived ORDER BY section_order, id`,
      [project.id],
    );
    const tasks = await manager.query<WireItem[]>(
      `SELECT ${ITEM_WIRE_COLUMNS} FROM sync.items WHERE project_id = $1 AND NOT is_deleted AND NOT checked AND NOT in_history ORDER BY child_order, id`,
      [project.id],
    );
    const notes = await manager.query<Note[]>(
      `SELECT ${NOTE_COLUMNS} FROM sync.notes n WHERE n.project_id = $1 AND NOT n.is_deleted
        AND (n.item_id IS NULL OR n.item_id IN (SELECT id FROM sync.items WHERE project_id = $1 AND NOT is_deleted AND NOT checked AND NOT in_history))
        ORDER BY n.posted_at, n.id`,
      [project.id],
    );
    const people = [...new Set([...tasks.flatMap((task) => [task.added_by_uid, task.responsible_uid]), ...notes.map((note) => note.posted_uid)])].filter(
      (id): id is string => id !== null && isObjectId(id),
    );
    const names = people.length
      ? await manager.query<Array<{ id: string; full_name: string }>>(`SELECT id::text AS id, full_name FROM sync.users WHERE id = ANY($1::bigint[])`, [people])
      : [];
    return { project, sections, tasks, notes, names: new Map(names.map((row) => [row.id, row.full_name])) };
  }
}
