import 'reflect-metadata';
import { LIVE_NOTIFICATION_COMMANDS } from '@doable/contracts-notifications';
import { COMMAND_ACTION_GROUP, WORKSPACE_COMMAND_ACTION_GROUP } from '@doable/contracts-sync';
import type { FactoryProvider } from '@nestjs/common';
import { COMMAND_HANDLERS, type CommandHandler, INTERNAL_COMMAND_HANDLERS } from './engine/commands/command-handler';
import { SyncModule } from './sync.service-definition';

/**
 * Commands that act on the user's own objects only, never inside a project: they need no role and
 * do not call CommandContext.requireAccess. Every other command has a row in
 * COMMAND_ACTION_GROUP (contracts-sync project-roles) or WORKSPACE_COMMAND_ACTION_GROUP
 * (workspace-roles), so a new command cannot forget its role.
 */
const NON_PROJECT_COMMANDS: ReadonlySet<string> = new Set([
  // A new project is the user's own; under a parent it is checked as project_move there.
  'project_add',
  'label_add',
  'label_update',
  'label_delete',
  'label_delete_occurrences',
  'label_rename',
  'label_update_orders',
  'filter_add',
  'filter_update',
  'filter_delete',
  'filter_update_orders',
  'user_update',
  'user_settings_update',
  'update_goals',
  'clear_locations',
  // The user's own view of a project: seeing it is enough.
  'view_options_set',
  'view_options_delete',
  ...LIVE_NOTIFICATION_COMMANDS,
  // Answered by the invitation's receiver, who is not a member yet.
  'accept_invitation',
  'reject_invitation',
  // A new workspace is the user's own (its other commands have rows in WORKSPACE_COMMAND_ACTION_GROUP).
  'workspace_add',
  // Answered or run by someone not (yet) a member: the invitation's secret, the join link or the
  // address's domain is the right (workspace-invitation-answer.command.ts, workspace-join.command.ts).
  'biz_accept_invitation',
  'biz_reject_invitation',
  'workspace_join',
]);

/** The handlers the service registers, built as its module builds them (their dependencies are never called here). */
function registered(token: symbol, ...leading: unknown[]): CommandHandler[] {
  const providers = Reflect.getMetadata('providers', SyncModule) as unknown[];
  const provider = providers.find((candidate): candidate is FactoryProvider => typeof candidate === 'object' && candidate !== null && (candidate as FactoryProvider).provide === token);
  if (!provider) throw new Error(`SyncModule registers no ${String(token)}`);
  const inject = provider.inject ?? [];
  return provider.useFactory(...leading, ...inject.slice(leading.length).map(() => ({}))) as CommandHandler[];
}

describe('every command is either project-scoped (with a role group) or explicitly not', () => {
  const handlers = registered(COMMAND_HANDLERS);
  const internal = registered(INTERNAL_COMMAND_HANDLERS, handlers);
  const types = [...handlers, ...internal].map((handler) => handler.type);

  it('finds the registered commands', () => {
    expect(types).toEqual(expect.arrayContaining(['item_add', 'note_add', 'label_add', 'quick_add', 'live_notifications_mark_read']));
  });

  it.each(types.map((type) => [type]))('%s has a role group or is a non-project command', (type) => {
    expect(Object.hasOwn(COMMAND_ACTION_GROUP, type) || Object.hasOwn(WORKSPACE_COMMAND_ACTION_GROUP, type) || NON_PROJECT_COMMANDS.has(type)).toBe(true);
  });

  it('no command is both', () => {
    expect([...NON_PROJECT_COMMANDS].filter((type) => Object.hasOwn(COMMAND_ACTION_GROUP, type))).toEqual([]);
  });
});
