import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type Folder, FolderRepository, type MembershipChanges, type Workspace, type WorkspaceFilter, WorkspaceFilterRepository, type WorkspaceMember, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';

@Injectable()
export class WorkspaceSource implements ResourceSource<'workspaces'> {
  readonly type = 'workspaces' as const;

  constructor(private readonly workspaces: WorkspaceRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Workspace[]> {
    return this.workspaces.listActive(manager, userId);
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

  listActive(manager: EntityManager, userId: string): Promise<Folder[]> {
    return this.folders.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Folder[]> {
    return this.folders.listChangedSince(manager, userId, version, memberships);
  }
}

@Injectable()
export class WorkspaceFilterSource implements ResourceSource<'workspace_filters'> {
  readonly type = 'workspace_filters' as const;

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<WorkspaceFilter[]> {
    return this.filters.listActive(manager, userId);
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<WorkspaceFilter[]> {
    return this.filters.listChangedSince(manager, userId, version, memberships);
  }
}
