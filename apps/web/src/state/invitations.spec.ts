import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import type { ProjectInvitation } from '../api/sync-types';
import { pendingInvitations } from './invitations';

// Ana (u1) shares p1: Bruno (u2, an account) is invited, Cleo (u3) is a member.
const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  user: { id: 'u1', full_name: 'Ana' },
  collaborators: [
    { id: 'u2', full_name: 'Bruno', email: 'bruno@example.test' },
    { id: 'u3', full_name: 'Cleo', email: 'cleo@example.test' },
  ],
  collaborator_states: [
    { project_id: 'p1', user_id: 'u2', state: 'invited' },
    { project_id: 'p1', user_id: 'u3', state: 'active', role: 'READ_WRITE' },
  ],
});

const invitation = (id: string, email: string, inviter: string): ProjectInvitation => ({ id, project_id: 'p1', inviter_id: inviter, user_email: email, role: 'READ_WRITE', created_at: '2026-11-29T06:00:00.000000Z' });

describe('pending invitations', () => {
  it('lists an address with no account from the server list, with Bruno once, each cancelled by its id', () => {
    const listed = [invitation('10', 'Bruno@example.test', 'u1'), invitation('11', 'someone@nowhere.test', 'u1')];
    expect(pendingInvitations(data, 'p1', listed, { share: true, manage: true })).toEqual([
      { key: 'invitation:10', email: 'Bruno@example.test', name: 'Bruno', cancel: { type: 'delete_invitation', args: { invitation_id: '10' } } },
      { key: 'invitation:11', email: 'someone@nowhere.test', name: undefined, cancel: { type: 'delete_invitation', args: { invitation_id: '11' } } },
    ]);
  });

  it('lets a member who may invite cancel only what they sent; a manager anything', () => {
    const listed = [invitation('10', 'bruno@example.test', 'u3'), invitation('11', 'someone@nowhere.test', 'u1')];
    const cancels = (rights: { share: boolean; manage: boolean }) => pendingInvitations(data, 'p1', listed, rights).map((line) => line.cancel?.type ?? null);
    expect(cancels({ share: true, manage: false })).toEqual([null, 'delete_invitation']);
    expect(cancels({ share: true, manage: true })).toEqual(['delete_invitation', 'delete_invitation']);
    expect(cancels({ share: false, manage: false })).toEqual([null, null]);
  });

  it('shows the synced invitations until the list is read, cancelled by address by managers only', () => {
    expect(pendingInvitations(data, 'p1', undefined, { share: true, manage: true })).toEqual([
      { key: 'person:u2', email: 'bruno@example.test', name: 'Bruno', cancel: { type: 'delete_collaborator', args: { project_id: 'p1', email: 'bruno@example.test' } } },
    ]);
    expect(pendingInvitations(data, 'p1', undefined, { share: true, manage: false })[0].cancel).toBeNull();
    expect(pendingInvitations(data, 'p2', undefined, { share: true, manage: true })).toEqual([]);
  });
});
