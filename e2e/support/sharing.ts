import { http, waitFor } from '@doable/shared-testing';
import { withOverloadRetries } from './overload-retries';
import type { Account, SystemUnderTest } from './system-view';

let counter = 0;

/** One command through the api/v1 Sync API; answers its sync_status value. */
export async function command(system: SystemUnderTest, account: Account, type: string, args: Record<string, unknown>): Promise<unknown> {
  const uuid = `sharing-${system.mode}-${++counter}`;
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { commands: [{ type, uuid, args }] } }));
  expect(response.status).toBe(200);
  return response.body.sync_status[uuid];
}

/**
 * Makes `member` a collaborator of the owner's project the way people do: the owner invites,
 * the invitation reaches the member as a live notification (through the notifications
 * service), and the member accepts it with the secret it carries.
 */
export async function shareWith(system: SystemUnderTest, owner: Account, member: Account, projectId: string, role?: string): Promise<void> {
  expect(await command(system, owner, 'share_project', { project_id: projectId, email: member.email, ...(role ? { role } : {}) })).toBe('ok');
  const [invitation] = await system.sql<{ id: string }>(
    `SELECT id::text FROM sync.project_invitations WHERE project_id = $1 AND invitee_id = $2 AND state = 'invited' ORDER BY id DESC LIMIT 1`,
    [projectId, member.userId],
  );
  const secret = await waitFor(async () => {
    const body = (await http(system.url, 'POST', '/api/v1/sync', { token: member.token, json: { sync_token: '*', resource_types: ['live_notifications'] } })).body;
    const notification = (body.live_notifications as Array<{ invitation_id?: string; invitation_secret?: string }>).find((n) => n.invitation_id === invitation.id);
    return notification?.invitation_secret;
  }, `the invitation to ${member.email}`);
  expect(await command(system, member, 'accept_invitation', { invitation_id: invitation.id, invitation_secret: secret })).toBe('ok');
}
