import { WORKSPACE_ROLES } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type Workspace, type WorkspaceRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';
import { flag, idArg } from '../../command-args';

export const workspaceNameArg = z.string().trim().min(1).max(255);
export const workspaceDescriptionArg = z.string().max(16_384);
export const workspaceRoleArg = z.enum(WORKSPACE_ROLES);
/** A domain name as `domain_name` holds it: lower-cased, without an `@`. */
export const domainNameArg = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Not a domain name');

/** The settings workspace_add takes and workspace_update changes (sdk 17 AddWorkspaceArgs, snake_case). */
export const workspaceSettingsArgs = {
  description: workspaceDescriptionArg.nullable().optional(),
  is_link_sharing_enabled: flag.optional(),
  is_guest_allowed: flag.optional(),
  domain_name: domainNameArg.nullable().optional(),
  domain_discovery: flag.optional(),
  restrict_email_domains: flag.optional(),
  // Accepted and not kept: the public service's free-form properties have no meaning here.
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
};

/** The workspace a command names by `id` or `workspace_id` (the public commands use both). */
export const workspaceRef = { id: idArg.optional(), workspace_id: idArg.optional() };

export function workspaceIdOf(args: { id?: string | number; workspace_id?: string | number }): string | number {
  const value = args.id ?? args.workspace_id;
  if (value === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: id', { argument: 'id' });
  return value;
}

/**
 * The workspace an argument names (a temp id of this request too), if the user is an active
 * member and their role allows the command (CommandContext.requireWorkspaceAccess).
 */
export async function loadWorkspace(workspaces: WorkspaceRepository, context: CommandContext, value: unknown, argument = 'id', asCommand?: string): Promise<Workspace> {
  const id = await context.resolveId(value, argument);
  await context.requireWorkspaceAccess(id, asCommand);
  const workspace = await workspaces.findForMember(context.tx.manager, context.userId, id);
  if (!workspace) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { argument, id });
  return workspace;
}
