import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { type WireWorkspace, WORKSPACE_COLUMNS, WORKSPACE_WIRE_COLUMNS, type Workspace } from './workspace.model';
import { type MembershipChanges, VISIBLE_WORKSPACES } from '../membership/membership';

/** A full sync's workspaces: those the user is an active member of. */
const ACTIVE_WORKSPACES = `FROM sync.workspaces w JOIN sync.workspace_members m ON m.workspace_id = w.id AND m.user_id = $1 AND m.state = 'active'
  WHERE NOT w.is_deleted ORDER BY w.id`;

export interface NewWorkspace {
  readonly name: string;
  readonly description: string;
  readonly creatorId: string;
  readonly inviteCode: string;
  readonly isLinkSharingEnabled: boolean;
  readonly isGuestAllowed: boolean;
  readonly domainName: string | null;
  readonly domainDiscovery: boolean;
  readonly restrictEmailDomains: boolean;
}

export type WorkspaceChanges = Partial<{
  name: string;
  description: string;
  is_link_sharing_enabled: boolean;
  is_guest_allowed: boolean;
  domain_name: string | null;
  domain_discovery: boolean;
  restrict_email_domains: boolean;
  invite_code: string;
  is_deleted: boolean;
}>;

/**
 * Workspaces. Reads are made for one user (`$1`): a workspace is seen through an active
 * membership (VISIBLE_WORKSPACES), with that user's role. Every change stamps the workspace's
 * version, and so does every change of its memberships (the counts and roles the workspace
 * object carries), so members re-read it.
 */
@Injectable()
export class WorkspaceRepository {
  /** A new workspace with its creator as its first ADMIN. */
  async create(manager: EntityManager, workspace: NewWorkspace, version: string): Promise<string> {
    const [{ id }] = await manager.query<Array<{ id: string }>>(
      // On the catalogue's default workspace plan (its limits are read from sync.default_workspace_plan while `limits` is null).
      `INSERT INTO sync.workspaces (name, description, creator_id, invite_code, is_link_sharing_enabled, is_guest_allowed, domain_name, domain_discovery, restrict_email_domains, version, plan_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, COALESCE((SELECT plan_type FROM sync.default_workspace_plan), 'STARTER')) RETURNING id::text`,
      [
        workspace.name,
        workspace.description,
        workspace.creatorId,
        workspace.inviteCode,
        workspace.isLinkSharingEnabled,
        workspace.isGuestAllowed,
        workspace.domainName,
        workspace.domainDiscovery,
        workspace.restrictEmailDomains,
        version,
      ],
    );
    await manager.query(`INSERT INTO sync.workspace_members (workspace_id, user_id, role, version) VALUES ($1, $2, 'ADMIN', $3)`, [id, workspace.creatorId, version]);
    return id;
  }

  /** The workspace as the user sees it, if they are an active member and it is not deleted. */
  async findForMember(manager: EntityManager, userId: string, workspaceId: string): Promise<Workspace | undefined> {
    if (!isObjectId(workspaceId)) return undefined;
    const rows = await manager.query<Workspace[]>(
      `SELECT ${WORKSPACE_COLUMNS} FROM sync.workspaces w JOIN sync.workspace_members m ON m.workspace_id = w.id AND m.user_id = $1 AND m.state = 'active'
        WHERE w.id = $2 AND NOT w.is_deleted`,
      [userId, workspaceId],
    );
    return rows[0];
  }

  /**
   * Locks the workspace row for the rest of the transaction: commands that count its members,
   * guests, folders, filters or projects against its plan take it first, so two of them cannot
   * both take the last place. Answers whether the workspace exists (not deleted).
   */
  async lock(manager: EntityManager, workspaceId: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>(`SELECT 1 FROM sync.workspaces WHERE id = $1 AND NOT is_deleted FOR UPDATE`, [workspaceId]);
    return rows.length > 0;
  }

  async update(manager: EntityManager, workspaceId: string, changes: WorkspaceChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.workspaces', [workspaceId], changes, version);
  }

  /** Stamps the workspace as changed (a membership or a count it shows moved). */
  async touch(manager: EntityManager, workspaceId: string, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.workspaces', [workspaceId], {}, version);
  }

  /** Whether a live workspace lets outsiders in as guests (is_guest_allowed); undefined when it does not exist. */
  async isGuestAllowed(manager: EntityManager, workspaceId: string): Promise<boolean | undefined> {
    const rows = await manager.query<Array<{ is_guest_allowed: boolean }>>(`SELECT is_guest_allowed FROM sync.workspaces WHERE id = $1 AND NOT is_deleted`, [workspaceId]);
    return rows[0]?.is_guest_allowed;
  }

  /** The user's workspaces for a full sync. */
  async listActive(manager: EntityManager, userId: string): Promise<Workspace[]> {
    return manager.query<Workspace[]>(`SELECT ${WORKSPACE_COLUMNS} ${ACTIVE_WORKSPACES}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireWorkspace[]> {
    return manager.query<WireWorkspace[]>(`SELECT ${WORKSPACE_WIRE_COLUMNS} ${ACTIVE_WORKSPACES}`, [userId]);
  }

  /**
   * The user's workspaces changed after a version (or whose projects did: the active-project
   * count), those joined since whole, and tombstones of those deleted or left since (a left one
   * is written deleted: it is gone for this user).
   */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Workspace[]> {
    const rows = await manager.query<Workspace[]>(
      `SELECT ${WORKSPACE_COLUMNS} FROM sync.workspaces w LEFT JOIN sync.workspace_members m ON m.workspace_id = w.id AND m.user_id = $1
        WHERE (w.id IN (${VISIBLE_WORKSPACES})
               AND (w.version > $2
                    -- A project of the workspace was added, archived, moved or deleted: its count moved
                    -- (project commands touch the workspace's members but do not stamp its row, which
                    -- would make every project change wait on the workspace's lock).
                    OR EXISTS (SELECT 1 FROM sync.projects p WHERE p.workspace_id = w.id AND p.version > $2)))
           OR w.id = ANY($3::bigint[]) OR w.id = ANY($4::bigint[])
        ORDER BY w.id`,
      [userId, version, memberships.workspacesJoined, memberships.workspacesLeft],
    );
    const left = new Set(memberships.workspacesLeft);
    for (const row of rows) if (left.has(row.id)) row.is_deleted = true;
    return rows;
  }

  /** The workspaces this user created that are on the starter plan (not deleted): what max_free_workspaces_created counts. */
  async countFreeCreatedBy(manager: EntityManager, userId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.workspaces WHERE creator_id = $1 AND plan_type = 'STARTER' AND NOT is_deleted`,
      [userId],
    );
    return row.count;
  }

  /** The workspace whose join link has this code (not deleted), for workspaces/join. */
  async findIdByInviteCode(manager: EntityManager, inviteCode: string): Promise<string | undefined> {
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.workspaces WHERE invite_code = $1 AND NOT is_deleted`, [inviteCode]);
    return rows[0]?.id;
  }

  /** Workspaces that let users of this email domain join by themselves (domain_discovery). */
  async findIdsByDomain(manager: EntityManager, domain: string): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(
      `SELECT id::text FROM sync.workspaces WHERE lower(domain_name) = lower($1) AND domain_discovery AND NOT is_deleted ORDER BY id`,
      [domain],
    );
    return rows.map((row) => row.id);
  }
}
