import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { inVisibleProjects, VISIBLE_PROJECTS } from '../membership/membership';

/** What is completed under one project, section or parent task. */
export type CompletedInfo =
  | { readonly kind: 'project'; readonly id: string; readonly completedItems: number; readonly archivedSections: number }
  | { readonly kind: 'section'; readonly id: string; readonly completedItems: number }
  | { readonly kind: 'item'; readonly id: string; readonly completedItems: number };

/** The containers an incremental sync or an archive page names. */
interface Scope {
  readonly projectIds: readonly string[];
  readonly sectionIds: readonly string[];
  readonly parentIds: readonly string[];
}

/**
 * Counts behind the `completed_info` resource, grouped in SQL: tasks moved to history per
 * project and section, checked subtasks per parent, archived sections per project. A full
 * sync counts every visible container; an incremental one only those its changes touched.
 */
@Injectable()
export class CompletedInfoRepository {
  /**
   * Every non-zero count (a full sync). One scan of the user's checked tasks, by the completed
   * index over every visible project at once, feeds all three groupings. Counting per container
   * instead read every task of each project (twice: the planner evaluated the per-project
   * subqueries in the filter and again in the answer), walked every account's sections, and
   * joined every account's checked subtasks to their parents: 67 ms of PostgreSQL beside a
   * 50,000-task account, against 6 (issue #48). A task in history is checked (completing sets
   * both, reopening clears both), and a subtask shares its parent's project, so the user's
   * checked tasks hold every task these counts count.
   */
  async all(manager: EntityManager, userId: string): Promise<CompletedInfo[]> {
    const rows = await manager.query<CountRow[]>(
      `WITH done AS MATERIALIZED (
         SELECT project_id, section_id, parent_id, in_history FROM sync.items
          WHERE ${inVisibleProjects('project_id')} AND checked AND NOT is_deleted
       ), in_history AS (
         SELECT project_id, count(*)::int AS n FROM done WHERE in_history GROUP BY project_id
       ), archived AS (
         SELECT project_id, count(*)::int AS n FROM sync.sections
          WHERE ${inVisibleProjects('project_id')} AND is_archived AND NOT is_deleted GROUP BY project_id
       )
       SELECT 'project' AS kind, p.id::text AS id, coalesce(h.n, 0) AS completed, coalesce(a.n, 0) AS archived
         FROM sync.projects p LEFT JOIN in_history h ON h.project_id = p.id LEFT JOIN archived a ON a.project_id = p.id
        WHERE ${inVisibleProjects('p.id')} AND NOT p.is_deleted AND (h.n > 0 OR a.n > 0)
       UNION ALL
       SELECT 'section', s.id::text, d.n, 0
         FROM (SELECT section_id, count(*)::int AS n FROM done WHERE in_history AND section_id IS NOT NULL GROUP BY section_id) d
         JOIN sync.sections s ON s.id = d.section_id
        WHERE ${inVisibleProjects('s.project_id')} AND NOT s.is_deleted
       UNION ALL
       SELECT 'item', parent.id::text, d.n, 0
         FROM (SELECT parent_id, count(*)::int AS n FROM done WHERE parent_id IS NOT NULL GROUP BY parent_id) d
         JOIN sync.items parent ON parent.id = d.parent_id
        WHERE ${inVisibleProjects('parent.project_id')} AND NOT parent.is_deleted`,
      [userId],
    );
    return rows.map(asCompletedInfo);
  }

  /**
   * The containers whose counts changes after `version` may have moved (zeros included), and
   * every container of the projects joined since (`joined`: their counts are new to the reader).
   */
  async touchedSince(manager: EntityManager, userId: string, version: string, joined: readonly string[] = []): Promise<CompletedInfo[]> {
    // The joined projects' clause only when there are any: the common read keeps its (project_id, version) index scans.
    const orJoined = joined.length > 0 ? ' OR project_id = ANY($3::bigint[])' : '';
    const [touched] = await manager.query<Array<{ projects: string[] | null; sections: string[] | null; parents: string[] | null }>>(
      `SELECT array_agg(DISTINCT project_id::text) AS projects,
              array_agg(DISTINCT section_id::text) FILTER (WHERE section_id IS NOT NULL) AS sections,
              array_agg(DISTINCT parent_id::text) FILTER (WHERE parent_id IS NOT NULL) AS parents
         FROM (SELECT project_id, section_id, parent_id FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND (version > $2${orJoined})
               UNION ALL
               SELECT project_id, NULL, NULL FROM sync.sections WHERE project_id IN (${VISIBLE_PROJECTS}) AND (version > $2${orJoined})
               ${joined.length > 0 ? 'UNION ALL SELECT unnest($3::bigint[]), NULL, NULL' : ''}) changed`,
      joined.length > 0 ? [userId, version, joined] : [userId, version],
    );
    const scope = { projectIds: touched?.projects ?? [], sectionIds: touched?.sections ?? [], parentIds: touched?.parents ?? [] };
    if (scope.projectIds.length + scope.sectionIds.length + scope.parentIds.length === 0) return [];
    return this.count(manager, userId, scope);
  }

  /** The completed subtasks of these tasks (v9 `archive/items`' completed_info), zeros included. */
  async forParents(manager: EntityManager, userId: string, parentIds: readonly string[]): Promise<CompletedInfo[]> {
    if (parentIds.length === 0) return [];
    return this.count(manager, userId, { projectIds: [], sectionIds: [], parentIds });
  }

  /**
   * The counts of the named containers, zeros included (what an incremental sync or an archive
   * page names is few): each container's rows by its own index, a project's from the completed
   * index (`checked` names it; a task in history is checked), not from all its tasks.
   */
  private async count(manager: EntityManager, userId: string, scope: Scope): Promise<CompletedInfo[]> {
    const rows = await manager.query<CountRow[]>(
      `WITH projects AS (
         SELECT p.id, (SELECT count(*) FROM sync.items i WHERE i.project_id = p.id AND i.checked AND i.in_history AND NOT i.is_deleted)::int AS completed,
                (SELECT count(*) FROM sync.sections s WHERE s.project_id = p.id AND s.is_archived AND NOT s.is_deleted)::int AS archived
           FROM sync.projects p WHERE p.id IN (${VISIBLE_PROJECTS}) AND NOT p.is_deleted AND p.id = ANY($2::bigint[])
       )
       SELECT 'project' AS kind, id::text AS id, completed, archived FROM projects
       UNION ALL
       SELECT 'section', s.id::text, count(i.id)::int, 0
         FROM sync.sections s LEFT JOIN sync.items i ON i.section_id = s.id AND i.in_history AND NOT i.is_deleted
        WHERE s.project_id IN (${VISIBLE_PROJECTS}) AND NOT s.is_deleted AND s.id = ANY($3::bigint[])
        GROUP BY s.id
       UNION ALL
       SELECT 'item', parent.id::text, count(child.id)::int, 0
         FROM sync.items parent LEFT JOIN sync.items child ON child.parent_id = parent.id AND child.checked AND NOT child.is_deleted
        WHERE parent.project_id IN (${VISIBLE_PROJECTS}) AND NOT parent.is_deleted AND parent.id = ANY($4::bigint[])
        GROUP BY parent.id`,
      [userId, scope.projectIds, scope.sectionIds, scope.parentIds],
    );
    return rows.map(asCompletedInfo);
  }
}

interface CountRow {
  readonly kind: CompletedInfo['kind'];
  readonly id: string;
  readonly completed: number;
  readonly archived: number;
}

function asCompletedInfo(row: CountRow): CompletedInfo {
  return row.kind === 'project' ? { kind: 'project', id: row.id, completedItems: row.completed, archivedSections: row.archived } : { kind: row.kind, id: row.id, completedItems: row.completed };
}
