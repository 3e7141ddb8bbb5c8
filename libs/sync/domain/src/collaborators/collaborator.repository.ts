import type { ProjectRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Collaboration, Collaborator, CollaboratorState } from './collaborator.model';
import { type MembershipChanges, VISIBLE_PROJECTS } from '../membership/membership';

/** A membership or an invitation of one project, as the states are built from. */
export interface PlaceRow {
  project_id: string;
  user_id: string;
  kind: 'member' | 'invitation';
  state: string;
  role: ProjectRole;
}

/** The reader's projects that are not deleted (archived ones are still shared). */
const OPEN_VISIBLE = `SELECT id FROM sync.projects WHERE id IN (${VISIBLE_PROJECTS}) AND NOT is_deleted`;

/**
 * Who shares the reader's projects, for the `collaborators` resource. A full read lists every
 * state of every shared project (more than one active member or invited user); an incremental
 * one re-lists the states of each project whose memberships or invitations changed after the
 * token (or that the reader joined), with tombstones for who left it, and the reader's own
 * state of each project they left. Invitations to an address without an account have no user
 * and no state; the invitee of an open invitation sees nothing of the project here (only its
 * live notification), its members see the `invited` state.
 */
@Injectable()
export class CollaboratorRepository {
  async all(manager: EntityManager, userId: string): Promise<Collaboration> {
    const projects = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM (${OPEN_VISIBLE}) visible`, [userId]);
    const states = statesOf(await this.places(manager, projects.map((row) => row.id)));
    return { collaborators: await this.users(manager, userId, states, undefined), states };
  }

  async changedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Collaboration> {
    // Both probes use the (project_id, version) indexes; a project's memberships are few.
    const projects = await manager.query<Array<{ id: string }>>(
      `SELECT p.id::text FROM (${OPEN_VISIBLE}) p
        WHERE p.id = ANY($3::bigint[])
           OR EXISTS (SELECT 1 FROM sync.project_members m WHERE m.project_id = p.id AND m.version > $2)
           OR EXISTS (SELECT 1 FROM sync.project_invitations i WHERE i.project_id = p.id AND i.version > $2)`,
      [userId, version, memberships.joined],
    );
    const states = statesOf(await this.places(manager, projects.map((row) => row.id), version));
    const own: CollaboratorState[] = (await this.ownRoles(manager, userId, memberships.left)).map(({ project_id, role }) => ({
      project_id,
      user_id: userId,
      state: 'active',
      is_deleted: true,
      role,
    }));
    const all = [...states, ...own];
    return { collaborators: await this.users(manager, userId, all, version), states: all };
  }

  /** Current memberships and open invitations of the projects, and (after a version) the departed and the closed ones. */
  private async places(manager: EntityManager, projectIds: readonly string[], since?: string): Promise<PlaceRow[]> {
    if (projectIds.length === 0) return [];
    return manager.query<PlaceRow[]>(
      `SELECT project_id::text, user_id::text, 'member' AS kind, state, role FROM sync.project_members
        WHERE project_id = ANY($1::bigint[]) AND (state = 'active' OR version > $2::bigint)
       UNION ALL
       SELECT project_id::text, invitee_id::text, 'invitation', state, role FROM sync.project_invitations
        WHERE project_id = ANY($1::bigint[]) AND invitee_id IS NOT NULL AND (state = 'invited' OR version > $2::bigint)
       ORDER BY project_id, user_id`,
      [projectIds, since ?? '9223372036854775807'],
    );
  }

  private async ownRoles(manager: EntityManager, userId: string, projectIds: readonly string[]): Promise<Array<{ project_id: string; role: ProjectRole }>> {
    if (projectIds.length === 0) return [];
    return manager.query(`SELECT project_id::text, role FROM sync.project_members WHERE user_id = $1 AND project_id = ANY($2::bigint[]) ORDER BY project_id`, [
      userId,
      projectIds,
    ]);
  }

  /**
   * The users the states name (the departed too: a client may still show their name on old
   * tasks); on an incremental read also every collaborator whose profile changed after the
   * version. Nobody when the reader shares nothing.
   */
  private async users(manager: EntityManager, userId: string, states: readonly CollaboratorState[], since: string | undefined): Promise<Collaborator[]> {
    const named = [...new Set(states.map((state) => state.user_id))];
    const columns = `id::text, email, full_name, timezone, image_id`;
    if (since === undefined) {
      if (named.length === 0) return [];
      return manager.query<Collaborator[]>(`SELECT ${columns} FROM sync.users WHERE id = ANY($1::bigint[]) ORDER BY id`, [named]);
    }
    return manager.query<Collaborator[]>(
      `WITH mates AS (
         SELECT m.user_id FROM sync.project_members m WHERE m.project_id IN (${OPEN_VISIBLE}) AND m.state = 'active'
         UNION
         SELECT i.invitee_id FROM sync.project_invitations i WHERE i.project_id IN (${OPEN_VISIBLE}) AND i.state = 'invited' AND i.invitee_id IS NOT NULL
       )
       SELECT ${columns} FROM sync.users
        WHERE id = ANY($3::bigint[])
           OR (version > $2 AND id IN (SELECT user_id FROM mates) AND EXISTS (SELECT 1 FROM mates WHERE user_id <> $1))
        ORDER BY id`,
      [userId, since, named],
    );
  }
}

/**
 * The states of each project from its places: a member wins over an invitation of the same
 * user. A project with one person left is no shared project: when someone left it since the
 * token, the last member's state goes as a tombstone too; otherwise it has no states at all.
 */
export function statesOf(places: readonly PlaceRow[]): CollaboratorState[] {
  const byProject = new Map<string, PlaceRow[]>();
  for (const place of places) byProject.set(place.project_id, [...(byProject.get(place.project_id) ?? []), place]);
  const states: CollaboratorState[] = [];
  for (const [projectId, rows] of byProject) {
    const current = new Map<string, CollaboratorState>();
    for (const row of rows) {
      const open = (row.kind === 'member' && row.state === 'active') || (row.kind === 'invitation' && row.state === 'invited');
      if (!open || (current.has(row.user_id) && row.kind === 'invitation')) continue;
      current.set(row.user_id, { project_id: projectId, user_id: row.user_id, state: row.kind === 'member' ? 'active' : 'invited', is_deleted: false, role: row.role });
    }
    const gone = new Map<string, CollaboratorState>();
    for (const row of rows) {
      // An accepted invitation is its membership now.
      if (current.has(row.user_id) || gone.has(row.user_id) || (row.kind === 'invitation' && row.state === 'accepted')) continue;
      if ((row.kind === 'member' && row.state !== 'active') || (row.kind === 'invitation' && row.state !== 'invited')) {
        gone.set(row.user_id, { project_id: projectId, user_id: row.user_id, state: row.kind === 'member' ? 'active' : 'invited', is_deleted: true, role: row.role });
      }
    }
    if (current.size > 1) states.push(...current.values(), ...gone.values());
    else if (gone.size > 0) states.push(...[...current.values()].map((state) => ({ ...state, is_deleted: true })), ...gone.values());
  }
  return states;
}
