import { Injectable } from '@nestjs/common';
import { isObjectId, storedInteger } from '@doable/contracts-common';
import { DATA_DELETE, FILTER_ADD_ARGS, FILTER_UPDATE_ARGS, inWorkspace } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type WorkspaceFilter, WorkspaceFilterRepository } from '@doable/sync-domain';
import { forEachEntry, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
// The same fields, bounds and colours for a user's own filters and a workspace's.
import { filterChanges, newFilterFields } from '../filters/filter-args';

/**
 * A workspace filter an argument names, locked, if the user may run `commandType` in its
 * workspace (the role table: ADMIN and MEMBER contribute, a GUEST is FORBIDDEN). A filter of a
 * workspace the user is not in is WORKSPACE_FILTER_NOT_FOUND, as one that does not exist: its
 * existence is not told to outsiders.
 */
async function loadWorkspaceFilter(filters: WorkspaceFilterRepository, context: CommandContext, commandType: string, value: unknown, argument = 'id'): Promise<WorkspaceFilter> {
  const id = await context.resolveId(value, argument);
  const notFound = () => new DomainError('WORKSPACE_FILTER_NOT_FOUND', 'Workspace filter not found', { argument, id });
  if (!isObjectId(id)) throw notFound();
  const filter = await filters.findForUpdate(context.tx.manager, id);
  if (!filter) throw notFound();
  try {
    await context.requireWorkspaceAccess(filter.workspace_id, commandType);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'WORKSPACE_NOT_FOUND') throw notFound();
    throw error;
  }
  return filter;
}

/**
 * workspace_filter_add (+temp_id): a filter every member of the workspace sees, at the end of the
 * workspace's filters unless an order is given. The workspace's plan (not the adding member's)
 * must include `workspace_filters` and have room under its max_workspace_filters; the count is
 * taken under the workspace's lock, as several members may add at once.
 */
@Injectable()
export class WorkspaceFilterAddCommand implements CommandHandler {
  readonly type = 'workspace_filter_add';
  readonly policy = inWorkspace('contribute', { quantity: 'max_workspace_filters' });
  private readonly schema = z.object({ workspace_id: idArg, ...FILTER_ADD_ARGS });

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const workspaceId = await context.resolveId(args.workspace_id, 'workspace_id');
    await context.requireWorkspaceAccess(workspaceId, this.type);
    await context.plan.requireWorkspaceFeature('workspace_filters', workspaceId);
    await context.plan.requireRoom('max_workspace_filters', {
      planOf: context.userId,
      workspace: workspaceId,
      lockKey: workspaceId,
      count: () => this.filters.countActive(context.tx.manager, workspaceId),
    });
    const filter = await this.filters.insert(context.tx.manager, { workspaceId, creatorId: context.userId, ...newFilterFields(args) }, context.version);
    context.touchWorkspace(workspaceId);
    return { createdId: filter.id };
  }
}

/**
 * workspace_filter_update: any of the fields workspace_filter_add takes. Any contributing member
 * may change any of the workspace's filters, not only its creator (a guess: they are the team's
 * shared views, as its folders are); `updater_id` records who did.
 */
@Injectable()
export class WorkspaceFilterUpdateCommand implements CommandHandler {
  readonly type = 'workspace_filter_update';
  readonly policy = inWorkspace('contribute');
  private readonly schema = z.object({ id: idArg, ...FILTER_UPDATE_ARGS });

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const filter = await loadWorkspaceFilter(this.filters, context, this.type, args.id);
    await this.filters.update(context.tx.manager, filter.id, { ...filterChanges(args), updater_id: context.userId }, context.version);
    context.touchWorkspace(filter.workspace_id);
    return {};
  }
}

/** workspace_filter_delete: the filter becomes a tombstone for every member. */
@Injectable()
export class WorkspaceFilterDeleteCommand implements CommandHandler {
  readonly type = 'workspace_filter_delete';
  readonly policy = inWorkspace('contribute', { scopes: DATA_DELETE });
  private readonly schema = z.object({ id: idArg });

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const filter = await loadWorkspaceFilter(this.filters, context, this.type, parseArgs(this.schema, rawArgs).id);
    await this.filters.update(context.tx.manager, filter.id, { is_deleted: true, updater_id: context.userId }, context.version);
    context.touchWorkspace(filter.workspace_id);
    return {};
  }
}

/**
 * workspace_filter_update_orders: new positions, each filter on its own (a refused id leaves the
 * others applied), as filter_update_orders. The ids may belong to several workspaces.
 */
@Injectable()
export class WorkspaceFilterUpdateOrdersCommand implements CommandHandler {
  readonly type = 'workspace_filter_update_orders';
  readonly policy = inWorkspace('contribute');
  private readonly schema = z.object({ id_order_mapping: z.record(z.string(), storedInteger) });

  constructor(private readonly filters: WorkspaceFilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = Object.entries(parseArgs(this.schema, rawArgs).id_order_mapping).map(([id, order]) => [id, { id, order }] as const);
    return forEachEntry(context, entries, async ({ id, order }) => {
      const filter = await loadWorkspaceFilter(this.filters, context, this.type, id, 'id_order_mapping');
      await this.filters.update(context.tx.manager, filter.id, { item_order: order, updater_id: context.userId }, context.version);
      context.touchWorkspace(filter.workspace_id);
    });
  }
}

export const WORKSPACE_FILTER_COMMANDS = [WorkspaceFilterAddCommand, WorkspaceFilterUpdateCommand, WorkspaceFilterDeleteCommand, WorkspaceFilterUpdateOrdersCommand];
