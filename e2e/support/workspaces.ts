import { http, waitFor } from '@doable/shared-testing';
import { withOverloadRetries } from './overload-retries';
import type { Account, SystemUnderTest } from './system-view';

let counter = 0;

/** One command through the api/v1 Sync API as the account; answers its status and the temp id mapping. */
export async function workspaceCommand(
  system: SystemUnderTest,
  account: Account,
  type: string,
  args: Record<string, unknown>,
  tempId?: string,
): Promise<{ status: any; mapping: Record<string, string> }> {
  const uuid = `workspaces-${system.mode}-${++counter}`;
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { commands: [{ type, uuid, args, ...(tempId ? { temp_id: tempId } : {}) }] } }));
  expect(response.status).toBe(200);
  return { status: response.body.sync_status[uuid], mapping: response.body.temp_id_mapping };
}

/** A creating command that must succeed; answers the new object's id. */
export async function createWith(system: SystemUnderTest, account: Account, type: string, args: Record<string, unknown>): Promise<string> {
  const tempId = `tmp-${++counter}`;
  const { status, mapping } = await workspaceCommand(system, account, type, args, tempId);
  expect([type, status]).toEqual([type, 'ok']);
  return mapping[tempId];
}

/** The account's live notifications (a full read of that resource). */
export async function notificationsOf(system: SystemUnderTest, account: Account): Promise<Array<Record<string, any>>> {
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['live_notifications'] } }));
  expect(response.status).toBe(200);
  return response.body.live_notifications;
}

/** Waits until the account has a live notification of the type matching `test`; answers it. */
export function notificationOf(system: SystemUnderTest, account: Account, type: string, test: (notification: Record<string, any>) => boolean = () => true): Promise<Record<string, any>> {
  return waitFor(async () => (await notificationsOf(system, account)).find((notification) => notification.notification_type === type && test(notification)), `${account.email}'s ${type}`, 20_000);
}

/**
 * Invites the account to the workspace (workspace_invite as `by`) and has it accept with the
 * secret its workspace_invitation_created live notification carries, as a client does.
 */
export async function joinWorkspace(system: SystemUnderTest, by: Account, account: Account, workspaceId: string, role: 'ADMIN' | 'MEMBER' | 'GUEST'): Promise<void> {
  const { status } = await workspaceCommand(system, by, 'workspace_invite', { workspace_id: workspaceId, email_list: [account.email], role });
  expect(status).toBe('ok');
  const invitation = await notificationOf(system, account, 'workspace_invitation_created', (notification) => String(notification.workspace_id) === workspaceId && notification.state === 'invited');
  const accepted = await workspaceCommand(system, account, 'biz_accept_invitation', { invitation_id: invitation.invitation_id, invitation_secret: invitation.invitation_secret });
  expect(accepted.status).toBe('ok');
}

/** A full api/v1 sync of the resources a workspace member sees. */
export async function fullSync(system: SystemUnderTest, account: Account, types: readonly string[] = ['workspaces', 'workspace_users', 'folders', 'workspace_filters', 'projects']): Promise<any> {
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: types } }));
  expect(response.status).toBe(200);
  return response.body;
}

/** An incremental api/v1 sync from a token. */
export async function syncFrom(system: SystemUnderTest, account: Account, token: string, types: readonly string[] = ['workspaces', 'workspace_users', 'folders', 'workspace_filters', 'projects']): Promise<any> {
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: token, resource_types: types } }));
  expect(response.status).toBe(200);
  return response.body;
}
