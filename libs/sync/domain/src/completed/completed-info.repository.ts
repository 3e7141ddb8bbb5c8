import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { VISIBLE_PROJECTS } from '../membership/membership';

/** What is completed under one project, section or parent task. */
export type CompletedInfo =
  | { readonly kind: 'project'; readonly id: string; readonly completedItems: number; readonly archivedSections: number }
  | { readonly kind: 'section'; readonly id: string; readonly completedItems: number }
  | { readonly kind: 'item'; readonly id: string; readonly completedItems: number };

interface Scope {
  readonly projectIds?: readonly string[];
  readonly sectionIds?: readonly string[];
  readonly parentIds?: readonly string[];
}

/**
 * Counts behind the `completed_info` resource, grouped in SQL: tasks moved to history per
 * project and section, checked subtasks per parent, archived sections per project. A full
 * sync counts every visible container; an incremental one only those its changes touched.
 */
@Injectable()
export class CompletedInfoRepository {
  async all(manager: EntityManager, userId: string): Promise<CompletedInfo[]> {
    return this.count(manager, userId, undefined);
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

  private async count(manager: EntityManager, userId: string, scope: Scope | undefined): Promise<CompletedInfo[]> {
    const within = (column: string, ids: readonly string[] | undefined, param: string) => (ids === undefined ? '' : `AND ${column} = ANY(${param}::bigint[])`);
    const params = scope === undefined ? [userId] : [userId, scope.projectIds ?? [], scope.sectionIds ?? [], scope.parentIds ?? []];
    const rows = await manager.query<Array<{ kind: CompletedInfo['kind']; id: string; completed: number; archived: number }>>(
      `WITH projects AS (
         SELECT p.id, (SELECT count(*) FROM sync.items i WHERE i.project_id = p.id AND i.in_history AND NOT i.is_deleted)::int AS completed,
                (SELECT count(*) FROM sync.sections s WHERE s.project_id = p.id AND s.is_archived AND NOT s.is_deleted)::int AS archived
           FROM sync.projects p WHERE p.id IN (${VISIBLE_PROJECTS}) AND NOT p.is_deleted ${within('p.id', scope?.projectIds, '$2')}
       )
       SELECT 'project' AS kind, id::text AS id, completed, archived FROM projects WHERE ${scope ? 'true' : 'completed > 0 OR archived > 0'}
       UNION ALL
       SELECT 'section', s.id::text, count(i.id)::int, 0
         FROM sync.sections s LEFT JOIN sync.items i ON i.section_id = s.id AND i.in_history AND NOT i.is_deleted
        WHERE s.project_id IN (${VISIBLE_PROJECTS}) AND NOT s.is_deleted ${within('s.id', scope?.sectionIds, '$3')}
        GROUP BY s.id ${scope ? '' : 'HAVING count(i.id) > 0'}
       UNION ALL
       SELECT 'item', parent.id::text, count(child.id)::int, 0
         FROM sync.items parent ${scope ? 'LEFT ' : ''}JOIN sync.items child ON child.parent_id = parent.id AND child.checked AND NOT child.is_deleted
        WHERE parent.project_id IN (${VISIBLE_PROJECTS}) AND NOT parent.is_deleted ${within('parent.id', scope?.parentIds, '$4')}
        GROUP BY parent.id ${scope ? '' : 'HAVING count(child.id) > 0'}`,
      params,
    );
    return rows.map((row) =>
      row.kind === 'project' ? { kind: 'project', id: row.id, completedItems: row.completed, archivedSections: row.archived } : { kind: row.kind, id: row.id, completedItems: row.completed },
    );
  }
}
