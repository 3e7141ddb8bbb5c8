import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type Folder, FolderRepository, ProjectRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { DATA_DELETE, inWorkspace } from '@doable/contracts-sync';

/**
 * A workspace's folders (the contract's folder_add / folder_update / folder_delete; sdk 17
 * types/workspaces Folder). Every member who can contribute (ADMIN, MEMBER; not guests) manages
 * them: each declares inWorkspace('contribute'). Every change touches the workspace, so all its members'
 * next syncs carry the folder (guests too: folders are workspace data every member reads).
 */

const folderNameArg = z.string().trim().min(1).max(255);
const orderArg = storedInteger.min(0);

/** A live folder, if the caller may run the command in its workspace; FOLDER_NOT_FOUND for one of a workspace they are not in. */
async function loadFolder(folders: FolderRepository, context: CommandContext, value: unknown): Promise<Folder> {
  const id = await context.resolveId(value, 'id');
  const folder = await folders.findForUpdate(context.tx.manager, id);
  if (!folder) throw new DomainError('FOLDER_NOT_FOUND', 'Folder not found', { argument: 'id', id });
  try {
    await context.requireWorkspaceAccess(folder.workspace_id);
  } catch (error) {
    // A non-member learns nothing of the workspace's folders: the folder is not found for them.
    if (error instanceof DomainError && error.code === 'WORKSPACE_NOT_FOUND') throw new DomainError('FOLDER_NOT_FOUND', 'Folder not found', { argument: 'id', id });
    throw error;
  }
  return folder;
}

/** folder_add {workspace_id*, name*, default_order?, child_order?} (+temp_id): counts max_folders_per_workspace of the workspace's plan. */
@Injectable()
export class FolderAddCommand implements CommandHandler {
  readonly type = 'folder_add';
  readonly policy = inWorkspace('contribute', { quantity: 'max_folders_per_workspace' });

  constructor(private readonly folders: FolderRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(z.object({ workspace_id: idArg, name: folderNameArg, default_order: orderArg.optional(), child_order: orderArg.optional() }), rawArgs);
    const workspaceId = await context.resolveId(args.workspace_id, 'workspace_id');
    await context.requireWorkspaceAccess(workspaceId);
    // Every member adds folders: counted under the workspace's lock.
    await context.plan.requireRoom('max_folders_per_workspace', {
      planOf: context.userId,
      workspace: workspaceId,
      lockKey: workspaceId,
      count: () => this.folders.countActive(context.tx.manager, workspaceId),
    });
    const folder = await this.folders.insert(
      context.tx.manager,
      { workspaceId, name: args.name, defaultOrder: args.default_order ?? null, childOrder: args.child_order ?? null },
      context.version,
    );
    context.touchWorkspace(workspaceId);
    return { createdId: folder.id };
  }
}

/** folder_update {id*, name?, default_order?, child_order?}. */
@Injectable()
export class FolderUpdateCommand implements CommandHandler {
  readonly type = 'folder_update';
  readonly policy = inWorkspace('contribute');

  constructor(private readonly folders: FolderRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(z.object({ id: idArg, name: folderNameArg.optional(), default_order: orderArg.optional(), child_order: orderArg.optional() }), rawArgs);
    const folder = await loadFolder(this.folders, context, args.id);
    await this.folders.update(context.tx.manager, folder.id, { name: args.name, default_order: args.default_order, child_order: args.child_order }, context.version);
    context.touchWorkspace(folder.workspace_id);
    return {};
  }
}

/** folder_delete {id*}: the folder becomes a tombstone; its projects stay, out of any folder (folder_id null). */
@Injectable()
export class FolderDeleteCommand implements CommandHandler {
  readonly type = 'folder_delete';
  readonly policy = inWorkspace('contribute', { scopes: DATA_DELETE });

  constructor(
    private readonly folders: FolderRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(z.object({ id: idArg }), rawArgs);
    const folder = await loadFolder(this.folders, context, args.id);
    const released = await this.projects.clearFolder(context.tx.manager, folder.id, context.version);
    await this.folders.update(context.tx.manager, folder.id, { is_deleted: true }, context.version);
    context.touch(...released);
    context.touchWorkspace(folder.workspace_id);
    return {};
  }
}

export const FOLDER_COMMANDS = [FolderAddCommand, FolderUpdateCommand, FolderDeleteCommand];
