import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type Folder, FolderRepository, type MembershipChanges, type WireFolder, type WireWorkspace, type WireWorkspaceFilter, type Workspace, type WorkspaceFilter, WorkspaceFilterRepository, type WorkspaceMember, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';

@Injectable()
export class WorkspaceSource implements ResourceSource<'workspaces'> {
  readonly type = 'workspaces' as const;

  constructor(private readonly workspaces: WorkspaceRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's workspaces out. */
  listActive(manager: EntityManager, userId: string): Promise<WireWorkspace[]> {
    return this.workspaces.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Workspace[]> {
    return this.workspaces.listChangedSince(manager, userId, version, memberships);
  }
}

/** `workspace_users`: never part of a full sync (sync-interface §4.1), so a full read has none. */
@Injectable()
export class WorkspaceUserSource implements ResourceSource<'workspace_users'> {
  readonly type = 'workspace_users' as const;

  constructor(private readonly members: WorkspaceMembersRepository) {}

  listActive(): Promise<WorkspaceMember[]> {
    return Promise.resolve([]);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<WorkspaceMember[]> {
    return this.members.listChangedSince(manager, userId, version, memberships);
  }
}

@Injectable()
export class FolderSource implements ResourceSource<'folders'> {
  readonly type = 'folders' as const;

  constructor(private readonly folders: FolderRepository) {}

  /** Timestamps as wire text, as the workspaces'. */
  listActive(manager: EntityManager, userId: string): Promise<WireFolder[]> {
    return this.folders.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Folder[]> {
    return this.folders.listChangedSince(manager, userId, version, memberships);
  }
}

@Injectable()
export class WorkspaceFilterSource implements ResourceSource<'workspace_filters'> {
  readonly type = 'workspace_filters' as const;

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  /** Timestamps as wire text, as the workspaces'. */
  listActive(manager: EntityManager, userId: string): Promise<WireWorkspaceFilter[]> {
    return this.filters.listActiveWire(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<WorkspaceFilter[]> {
    return this.filters.listChangedSince(manager, userId, version, memberships);
  }
}
