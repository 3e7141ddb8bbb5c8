import { AuthEvents } from '@doable/contracts-auth';
import { http, waitFor } from '@doable/shared-testing';
import { Secret, TOTP } from 'otpauth';
import { appOwner } from './support/app-owner';
import { HttpBrowser, logIn, type RegisteredApp } from './support/oauth-flow';
import { type Account, MODES } from './support/system-view';
import { PushClient } from './support/push-client';
import { command, shareWith } from './support/sharing';
import { useSystem } from './support/use-system';
import { withOverloadRetries } from './support/overload-retries';
import { createWith, joinWorkspace, workspaceCommand } from './support/workspaces';

/**
 * Security under load: many users syncing at once each get their own data, never another's.
 * (Embedded mode once answered 300 of 640 such requests with another account's data: PGlite's
 * socket server interleaved protocol messages of different connections. The serialising proxy
 * in front of it is what this guards.)
 */
const SYNC_PATHS = ['/api/v1/sync', '/sync/v9/sync', '/sync/v8/sync', '/API/v7/sync', '/API/v6/sync'];

/** The user and projects as each version answers them (v8 and older name the inbox `inbox_project`; v6 CamelCases). */
function userAndProjects(path: string, body: any): { email: unknown; inbox: unknown; projects: Array<{ id: unknown }> } {
  if (path === '/API/v6/sync') return { email: body.User?.email, inbox: body.User?.inbox_project, projects: body.Projects ?? [] };
  const user = body.user ?? {};
  return { email: user.email, inbox: path === '/api/v1/sync' || path === '/sync/v9/sync' ? user.inbox_project_id : user.inbox_project, projects: body.projects ?? [] };
}

describe.each(MODES)('isolation between concurrent users (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 12 });

  it('answers every one of many concurrent syncs with the asking user own data', async () => {
    const outcomes = { own: 0, foreign: 0, failed: 0 };
    // A failure's status and error tag, so a red run says what refused (an overload, a timeout).
    const failures: string[] = [];
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 48 }, async (_, index) => {
          const account = accounts[index % accounts.length];
          // Every Sync API version, in turn.
          const path = SYNC_PATHS[index % SYNC_PATHS.length];
          const read = path === '/API/v6/sync' ? { seq_no: 0 } : { sync_token: '*' };
          const response = await withOverloadRetries(() => http(system.url, 'POST', path, { token: account.token, json: { ...read, resource_types: ['user', 'projects'] } }));
          const seen = userAndProjects(path, response.body);
          if (response.status !== 200) {
            outcomes.failed++;
            failures.push(`${path} ${response.status} ${JSON.stringify(response.body).slice(0, 160)}`);
          }
          else if (seen.email === account.email && seen.projects.length === 1 && seen.projects.every((project) => project.id === seen.inbox)) outcomes.own++;
          else outcomes.foreign++;
        }),
      );
    }
    expect({ ...outcomes, failures: failures.slice(0, 5) }).toEqual({ own: 6 * 48, foreign: 0, failed: 0, failures: [] });
  });
});

/** Everything of one project, as each Sync API version names it: its projects' and tasks' names. */
function namesIn(path: string, body: any): string[] {
  const projects = (path === '/API/v6/sync' ? body.Projects : body.projects) ?? [];
  const items = (path === '/API/v6/sync' ? body.Items : body.items) ?? [];
  return [...projects.map((project: { name: string }) => project.name), ...items.map((item: { content: string }) => item.content)];
}

/**
 * Shared projects: members see and change them as their role allows, everyone else sees nothing
 * of them on any interface, and a removed member loses them at once.
 */
describe.each(MODES)('isolation of shared projects (%s)', (mode) => {
  const { system, accounts: [owner, member, stranger, completer] } = useSystem(mode, { accounts: 4 });
  let projectId: string;
  let taskId: string;
  let sectionId: string;

  beforeAll(async () => {
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: owner.token,
      json: {
        commands: [
          { type: 'project_add', uuid: `${mode}-iso-p`, temp_id: 'p', args: { name: 'Shared secret' } },
          { type: 'section_add', uuid: `${mode}-iso-s`, temp_id: 's', args: { name: 'Secret section', project_id: 'p' } },
          { type: 'item_add', uuid: `${mode}-iso-t`, temp_id: 't', args: { content: 'Secret task', project_id: 'p', due: { string: 'today' } } },
          { type: 'note_add', uuid: `${mode}-iso-n`, args: { item_id: 't', content: 'Secret comment' } },
        ],
      },
    });
    ({ p: projectId, t: taskId, s: sectionId } = made.body.temp_id_mapping as Record<string, string>);
    await shareWith(system, owner, member, projectId);
    await shareWith(system, owner, completer, projectId, 'COMPLETE_ONLY');
  });

  it.each(SYNC_PATHS)('shows the project to members and nothing of it to a stranger on %s', async (path) => {
    const read = path === '/API/v6/sync' ? { seq_no: 0 } : { sync_token: '*' };
    const seen = async (token: string) => namesIn(path, (await http(system.url, 'POST', path, { token, json: { ...read, resource_types: ['projects', 'items'] } })).body);
    expect(await seen(member.token)).toEqual(expect.arrayContaining(['Shared secret', 'Secret task']));
    expect(await seen(stranger.token)).not.toEqual(expect.arrayContaining(['Shared secret']));
    expect(await seen(stranger.token)).not.toEqual(expect.arrayContaining(['Secret task']));
  });

  it('answers a stranger 404 on every REST surface and not found on every command', async () => {
    const as = (path: string) => http(system.url, 'GET', path, { token: stranger.token });
    for (const path of [`/rest/v2/projects/${projectId}`, `/rest/v2/tasks/${taskId}`, `/rest/v2/sections/${sectionId}`, `/rest/v1/projects/${projectId}`, `/api/v1/projects/${projectId}/collaborators`, `/api/v1/tasks/${taskId}`]) {
      expect([path, (await as(path)).status]).toEqual([path, 404]);
    }
    const filtered = await as(`/api/v1/tasks/filter?query=${encodeURIComponent('today')}`);
    expect(filtered.body.results.map((task: { content: string }) => task.content)).not.toContain('Secret task');
    const refusals = [
      await command(system, stranger, 'item_update', { id: taskId, content: 'taken' }),
      await command(system, stranger, 'note_add', { item_id: taskId, content: 'intruding' }),
      await command(system, stranger, 'share_project', { project_id: projectId, email: stranger.email }),
      await command(system, stranger, 'section_add', { project_id: projectId, name: 'intruding' }),
    ];
    expect(refusals.map((status) => (status as { error_tag: string }).error_tag)).toEqual(['ITEM_NOT_FOUND', 'ITEM_NOT_FOUND', 'PROJECT_NOT_FOUND', 'PROJECT_NOT_FOUND']);
    // The member, asking the same, is answered: the refusals are about who asks.
    expect((await http(system.url, 'GET', `/rest/v2/tasks/${taskId}`, { token: member.token })).status).toBe(200);
  });

  it("refuses each role what it may not do, with a coded forbidden error (403 in REST)", async () => {
    const forbidden = { error_tag: 'FORBIDDEN', http_code: 403 };
    // COMPLETE_ONLY: may complete and comment, not edit or organise.
    expect(await command(system, completer, 'item_update', { id: taskId, content: 'edited' })).toMatchObject(forbidden);
    expect((await http(system.url, 'POST', `/rest/v2/tasks/${taskId}`, { token: completer.token, json: { content: 'edited' } })).body).toMatchObject(forbidden);
    expect((await http(system.url, 'POST', '/api/v1/sections', { token: completer.token, json: { name: 'x', project_id: projectId } })).status).toBe(403);
    expect(await command(system, completer, 'note_add', { item_id: taskId, content: 'done soon' })).toBe('ok');
    // READ_WRITE: may organise and edit, not manage the people or delete the project.
    expect(await command(system, member, 'section_add', { project_id: projectId, name: 'Member section' })).toBe('ok');
    expect(await command(system, member, 'delete_collaborator', { project_id: projectId, email: completer.email })).toMatchObject(forbidden);
    expect(await command(system, member, 'project_change_role', { id: projectId, user_id: completer.userId, role: 'ADMIN' })).toMatchObject(forbidden);
    expect(await command(system, member, 'project_delete', { id: projectId })).toMatchObject(forbidden);
    expect((await http(system.url, 'DELETE', `/rest/v2/projects/${projectId}`, { token: member.token })).status).toBe(403);
    // The task was not edited by the refused commands.
    expect((await http(system.url, 'GET', `/rest/v2/tasks/${taskId}`, { token: owner.token })).body.content).toBe('Secret task');
    expect((await http(system.url, 'POST', `/rest/v2/tasks/${taskId}/close`, { token: completer.token })).status).toBe(204);
  });

  it('lets no one grant a role above their own, on either sync path (issue #28)', async () => {
    const forbidden = { error_tag: 'FORBIDDEN', http_code: 403, error_extra: { argument: 'role' } };
    // The member is READ_WRITE: inviting an ADMIN, or making the completer one, is refused.
    expect(await command(system, member, 'share_project', { project_id: projectId, email: stranger.email, role: 'ADMIN' })).toMatchObject(forbidden);
    const v9 = await http(system.url, 'POST', '/sync/v9/sync', { token: member.token, json: { commands: [{ type: 'share_project', uuid: `${mode}-iso-escalate-v9`, args: { project_id: projectId, email: stranger.email, role: 'ADMIN' } }] } });
    expect(v9.body.sync_status[`${mode}-iso-escalate-v9`]).toMatchObject(forbidden);
    // The completer may not invite at all.
    expect(await command(system, completer, 'share_project', { project_id: projectId, email: stranger.email })).toMatchObject({ error_tag: 'FORBIDDEN' });
    // No invitation reached the stranger, who still sees nothing of the project.
    const notifications = (await http(system.url, 'POST', '/api/v1/sync', { token: stranger.token, json: { sync_token: '*', resource_types: ['live_notifications'] } })).body.live_notifications;
    expect(notifications.filter((n: { project_id?: string }) => n.project_id === projectId)).toEqual([]);
  });

  it("lists a project's open invitations, a stranger's address included, to those who may invite and to no one else", async () => {
    const address = `not-yet-${mode}@nowhere.test`;
    expect(await command(system, member, 'share_project', { project_id: projectId, email: address })).toBe('ok');
    const invitationsAs = (account: Account, id = projectId) => http(system.url, 'GET', `/api/v1/projects/${id}/invitations`, { token: account.token });
    const listed = await invitationsAs(owner);
    expect(listed.status).toBe(200);
    const timestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(listed.body).toEqual([{ id: expect.stringMatching(/^\d+$/), project_id: projectId, inviter_id: member.userId, user_email: address, role: 'READ_WRITE', created_at: timestamp }]);
    // The READ_WRITE member who invited sees it too; the COMPLETE_ONLY member, who may not invite, is refused; a stranger is told of no project.
    expect((await invitationsAs(member)).body).toEqual(listed.body);
    expect(await invitationsAs(completer)).toMatchObject({ status: 403, body: { error_tag: 'FORBIDDEN' } });
    expect(await invitationsAs(stranger)).toMatchObject({ status: 404, body: { error_tag: 'PROJECT_NOT_FOUND' } });
    expect((await invitationsAs(owner, '99999999999')).status).toBe(404);
    // Withdrawn by its sender (the completer may not): gone from the list, and the row says deleted.
    const [{ id }] = listed.body as Array<{ id: string }>;
    expect(await command(system, completer, 'delete_invitation', { invitation_id: id })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await command(system, member, 'delete_invitation', { invitation_id: id })).toBe('ok');
    expect((await invitationsAs(owner)).body).toEqual([]);
    expect(await system.sql('SELECT state FROM sync.project_invitations WHERE id = $1', [id])).toEqual([{ state: 'deleted' }]);
  });

  it('quick add reaches a shared project for its members only, and assigns a collaborator named with +', async () => {
    const quick = (token: string, text: string) => http(system.url, 'POST', '/api/v1/tasks/quick', { token, json: { text } });
    const assigned = await quick(owner.token, `Quick one #"Shared secret" +${member.email}`);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ content: 'Quick one', project_id: projectId, responsible_uid: member.userId });
    // A stranger's #"Shared secret" names no project of theirs: the text stays, the task goes to their Inbox.
    const outside = await quick(stranger.token, 'Peek #"Shared secret"');
    expect(outside.status).toBe(200);
    expect(outside.body.project_id).not.toBe(projectId);
    expect(outside.body.content).toContain('Shared secret');
  });

  it("tells a member's push socket of a change in the shared project, and a stranger's nothing", async () => {
    const socketOf = async (token: string) => {
      const body = (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['user'] } })).body;
      const client = await PushClient.connect(body.user.websocket_url as string);
      await client.settle();
      return client;
    };
    const [members, strangers] = [await socketOf(member.token), await socketOf(stranger.token)];
    try {
      const since = performance.now();
      expect(await command(system, owner, 'item_update', { id: taskId, description: 'news for members' })).toBe('ok');
      await members.next('sync_needed', since, 5_000);
      // The stranger's own change, told after the shared one: anything of that would have come first.
      expect(await command(system, stranger, 'item_add', { content: 'my own' })).toBe('ok');
      await strangers.next('sync_needed', since, 5_000);
      expect(strangers.received('sync_needed', since)).toHaveLength(1);
    } finally {
      members.close();
      strangers.close();
    }
  });

  it('takes everything away from a removed member at once', async () => {
    expect((await http(system.url, 'GET', `/rest/v2/projects/${projectId}`, { token: member.token })).status).toBe(200);
    expect(await command(system, owner, 'delete_collaborator', { project_id: projectId, email: member.email })).toBe('ok');
    // No waiting: the very next request is refused.
    expect((await http(system.url, 'GET', `/rest/v2/projects/${projectId}`, { token: member.token })).status).toBe(404);
    expect((await command(system, member, 'note_add', { item_id: taskId, content: 'too late' }) as { error_tag: string }).error_tag).toBe('ITEM_NOT_FOUND');
    const full = await http(system.url, 'POST', '/api/v1/sync', { token: member.token, json: { sync_token: '*', resource_types: ['projects', 'items', 'notes', 'sections'] } });
    expect(namesIn('/api/v1/sync', full.body)).not.toEqual(expect.arrayContaining(['Shared secret']));
  });
});

/**
 * Workspaces: a non-member sees nothing of one on any interface, a guest sees only the projects
 * it was invited to (not the team's others), and a removed member loses everything at once.
 */
describe.each(MODES)('isolation of workspaces (%s)', (mode) => {
  const { system, accounts: [admin, member, guest, stranger] } = useSystem(mode, { accounts: 4 });
  const ids = { workspace: '', team: '', invited: '', task: '', folder: '', filter: '' };
  const names = async (token: string, path = '/api/v1/sync') =>
    namesIn(path, (await http(system.url, 'POST', path, { token, json: { sync_token: '*', resource_types: ['projects', 'items'] } })).body);

  beforeAll(async () => {
    ids.workspace = await createWith(system, admin, 'workspace_add', { name: 'Isolated team' });
    await joinWorkspace(system, admin, member, ids.workspace, 'MEMBER');
    await joinWorkspace(system, admin, guest, ids.workspace, 'GUEST');
    ids.folder = await createWith(system, admin, 'folder_add', { workspace_id: ids.workspace, name: 'Team folder' });
    ids.team = await createWith(system, admin, 'project_add', { name: 'Team only', workspace_id: ids.workspace, folder_id: ids.folder });
    ids.invited = await createWith(system, admin, 'project_add', { name: 'Guest welcome', workspace_id: ids.workspace, is_invite_only: true });
    ids.task = await createWith(system, admin, 'item_add', { project_id: ids.team, content: 'Team task' });
    ids.filter = await createWith(system, admin, 'workspace_filter_add', { workspace_id: ids.workspace, name: 'Team filter', query: 'today' });
    await shareWith(system, admin, guest, ids.invited);
    expect((await http(system.url, 'POST', `/api/v1/projects/${ids.team}/join`, { token: member.token })).status).toBe(200);
  });

  it('shows a non-member nothing of the workspace on any interface', async () => {
    for (const path of ['/api/v1/sync', '/sync/v9/sync']) {
      const body = (await http(system.url, 'POST', path, { token: stranger.token, json: { sync_token: '*', resource_types: ['workspaces', 'folders', 'workspace_filters', 'projects', 'items'] } })).body;
      expect([path, body.workspaces, body.folders ?? [], body.workspace_filters]).toEqual([path, [], [], []]);
      expect(namesIn(path, body)).toEqual(['Inbox']);
    }
    for (const path of [`/api/v1/workspaces/${ids.workspace}`, `/api/v1/workspaces/users?workspace_id=${ids.workspace}`, `/api/v1/folders/${ids.folder}`, `/api/v1/workspaces/${ids.workspace}/projects/active`, `/api/v1/projects/${ids.team}`]) {
      expect([path, (await http(system.url, 'GET', path, { token: stranger.token })).status]).toEqual([path, 404]);
    }
    expect((await http(system.url, 'GET', '/api/v1/workspaces', { token: stranger.token })).body).toEqual([]);
    const refusals = [
      (await workspaceCommand(system, stranger, 'workspace_update', { id: ids.workspace, name: 'taken' })).status,
      (await workspaceCommand(system, stranger, 'folder_update', { id: ids.folder, name: 'taken' })).status,
      (await workspaceCommand(system, stranger, 'workspace_filter_update', { id: ids.filter, name: 'taken' })).status,
      (await workspaceCommand(system, stranger, 'project_join', { project_id: ids.team })).status,
      (await workspaceCommand(system, stranger, 'item_add', { project_id: ids.team, content: 'intruding' })).status,
    ];
    expect(refusals.map((status) => status.error_tag)).toEqual(['WORKSPACE_NOT_FOUND', 'FOLDER_NOT_FOUND', 'WORKSPACE_FILTER_NOT_FOUND', 'PROJECT_NOT_FOUND', 'PROJECT_NOT_FOUND']);
  });

  it('shows a guest only the project it was invited to', async () => {
    for (const path of ['/api/v1/sync', '/sync/v9/sync']) {
      expect((await names(guest.token, path)).sort()).toEqual(['Guest welcome', 'Inbox']);
    }
    expect((await http(system.url, 'GET', `/api/v1/projects/${ids.team}`, { token: guest.token })).status).toBe(404);
    expect((await http(system.url, 'GET', `/api/v1/tasks/${ids.task}`, { token: guest.token })).status).toBe(404);
    expect((await http(system.url, 'POST', `/api/v1/projects/${ids.team}/join`, { token: guest.token })).status).toBe(403);
    // The member who joined sees the team project; the admin too.
    expect(await names(member.token)).toEqual(expect.arrayContaining(['Team only', 'Team task']));
  });

  it('lets a guest bring no one into the workspace (issue #28)', async () => {
    // The guest is READ_WRITE in the invite-only project: sharing it is refused, so the stranger
    // never becomes a guest who could list the members.
    expect((await workspaceCommand(system, guest, 'share_project', { project_id: ids.invited, email: stranger.email })).status).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect((await workspaceCommand(system, guest, 'workspace_invite', { workspace_id: ids.workspace, email_list: [stranger.email] })).status).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect((await http(system.url, 'GET', `/api/v1/workspaces/users?workspace_id=${ids.workspace}`, { token: stranger.token })).status).toBe(404);
    // A POST /api/v1/projects naming the workspace makes nothing for a stranger or a guest.
    expect((await http(system.url, 'POST', '/api/v1/projects', { token: stranger.token, json: { name: 'Planted', workspace_id: ids.workspace } })).status).toBe(404);
    expect((await http(system.url, 'POST', '/api/v1/projects', { token: guest.token, json: { name: 'Planted', workspace_id: ids.workspace } })).status).toBe(403);
    expect(await names(stranger.token)).toEqual(['Inbox']);
  });

  it('takes the workspace and its projects away from a removed member at once', async () => {
    expect((await workspaceCommand(system, admin, 'workspace_delete_user', { workspace_id: ids.workspace, user_id: member.userId })).status).toBe('ok');
    // No waiting: the very next requests are refused.
    expect((await http(system.url, 'GET', `/api/v1/projects/${ids.team}`, { token: member.token })).status).toBe(404);
    expect((await http(system.url, 'GET', `/api/v1/workspaces/${ids.workspace}`, { token: member.token })).status).toBe(404);
    expect((await workspaceCommand(system, member, 'item_add', { project_id: ids.team, content: 'too late' })).status).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect((await workspaceCommand(system, member, 'folder_add', { workspace_id: ids.workspace, name: 'too late' })).status).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
    expect(await names(member.token)).toEqual(['Inbox']);
  });
});

/**
 * Templates and the completed listings: another user's project (or section, or task) is not
 * found, whether exported, imported into, or listed in archive/items; nothing is written to it.
 */
describe.each(MODES)('isolation of templates and archive listings (%s)', (mode) => {
  const { system, accounts: [owner, stranger] } = useSystem(mode, { accounts: 2 });
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: owner.token,
      json: {
        commands: [
          { type: 'project_add', uuid: `${mode}-iso-tpl-p`, temp_id: 'p', args: { name: 'Private plans' } },
          { type: 'section_add', uuid: `${mode}-iso-tpl-s`, temp_id: 's', args: { name: 'Private section', project_id: 'p' } },
          { type: 'item_add', uuid: `${mode}-iso-tpl-t`, temp_id: 't', args: { content: 'Private task', project_id: 'p' } },
          { type: 'item_add', uuid: `${mode}-iso-tpl-c`, temp_id: 'c', args: { content: 'Private done', parent_id: 't' } },
          { type: 'item_close', uuid: `${mode}-iso-tpl-close`, args: { id: 'c' } },
        ],
      },
    });
    expect(Object.values(made.body.sync_status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    ids = made.body.temp_id_mapping;
  });

  it("answers 404 for another user's project on every template path and archive/items, and writes nothing", async () => {
    const file = 'TYPE,CONTENT\ntask,Intruding\n';
    const answers: Array<[string, { status: number; body: any }]> = [
      ['v9 export_as_file', await http(system.url, 'GET', `/sync/v9/templates/export_as_file?project_id=${ids['p']}`, { token: stranger.token })],
      ['v8 export_as_url', await http(system.url, 'POST', '/sync/v8/templates/export_as_url', { token: stranger.token, form: { project_id: ids['p'] } })],
      ['v1 file', await http(system.url, 'GET', `/api/v1/templates/file?project_id=${ids['p']}`, { token: stranger.token })],
      ['v1 url', await http(system.url, 'GET', `/api/v1/templates/url?project_id=${ids['p']}`, { token: stranger.token })],
      ['v9 import', await http(system.url, 'POST', '/sync/v9/templates/import_into_project', { token: stranger.token, form: { project_id: ids['p'], file } })],
      ['v1 import', await http(system.url, 'POST', '/api/v1/templates/import_into_project_from_file', { token: stranger.token, json: { project_id: ids['p'], file } })],
      ['v1 from id', await http(system.url, 'POST', '/api/v1/templates/import_into_project_from_template_id', { token: stranger.token, json: { project_id: ids['p'], template_id: '1' } })],
      ['archive project', await http(system.url, 'GET', `/sync/v9/archive/items?project_id=${ids['p']}`, { token: stranger.token })],
      ['archive section', await http(system.url, 'GET', `/sync/v9/archive/items?section_id=${ids['s']}`, { token: stranger.token })],
      ['archive task', await http(system.url, 'GET', `/sync/v9/archive/items?item_id=${ids['t']}`, { token: stranger.token })],
    ];
    for (const [name, answer] of answers) expect([name, answer.status]).toEqual([name, 404]);
    const owned = await http(system.url, 'GET', `/api/v1/tasks?project_id=${ids['p']}`, { token: owner.token });
    expect(owned.body.results.map((task: any) => task.content)).toEqual(['Private task']);
    // The owner still reads them all.
    expect((await http(system.url, 'GET', `/sync/v9/archive/items?item_id=${ids['t']}`, { token: owner.token })).body.items.map((item: any) => item.content)).toEqual(['Private done']);
  });
});

describe.each(MODES)('isolation of uploads (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 4 });

  const upload = async (token: string, name: string): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([`content of ${name}`]), name);
    const response = await fetch(new URL('/api/v1/uploads', system.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(response.status).toBe(200);
    return ((await response.json()) as { file_url: string }).file_url;
  };

  it('lists each user only their own uploads while they upload at once, and lets no one delete another\'s', async () => {
    const urls = await Promise.all(accounts.flatMap((account, index) => [0, 1, 2].map((n) => upload(account.token, `u${index}-${n}.txt`))));
    const byOwner = accounts.map((_, index) => urls.slice(index * 3, index * 3 + 3));
    const listings = await Promise.all(
      accounts.map(async (account, index) => {
        const paths = ['/api/v1/uploads', '/sync/v9/uploads/get'];
        const response = await http(system.url, 'GET', paths[index % paths.length], { token: account.token });
        expect(response.status).toBe(200);
        const results = (Array.isArray(response.body) ? response.body : response.body.results) as Array<{ file_url: string; user_id: string }>;
        return results.map((upload) => upload.file_url).sort();
      }),
    );
    expect(listings).toEqual(byOwner.map((owned) => [...owned].sort()));
    for (const [index, account] of accounts.entries()) {
      const foreign = byOwner[(index + 1) % accounts.length][0];
      const refused = await http(system.url, 'DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(foreign)}`, { token: account.token });
      expect(refused.status).toBe(404);
      expect((await fetch(foreign)).status).toBe(200);
    }
  });
});

describe.each(MODES)('isolation of the activity log (%s)', (mode) => {
  const { system, accounts: [owner, stranger] } = useSystem(mode, { accounts: 2 });
  let projectId: string;
  let taskId: string;

  beforeAll(async () => {
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: owner.token,
      json: {
        commands: [
          { type: 'project_add', uuid: `${mode}-iso-act-p`, temp_id: 'p', args: { name: 'Logged secret' } },
          { type: 'item_add', uuid: `${mode}-iso-act-t`, temp_id: 't', args: { content: 'Logged task', project_id: 'p' } },
        ],
      },
    });
    ({ p: projectId, t: taskId } = made.body.temp_id_mapping as Record<string, string>);
    await waitFor(async () => (await http(system.url, 'GET', '/sync/v9/activity/get', { token: owner.token })).body.count === 2, 'the owner\'s activity log');
  });

  it('shows another user none of the events, whatever the filter names', async () => {
    for (const query of ['', `?object_id=${taskId}`, `?parent_project_id=${projectId}`, `?initiator_id=${owner.userId}`]) {
      const v9 = await http(system.url, 'GET', `/sync/v9/activity/get${query}`, { token: stranger.token });
      expect([query, v9.status, v9.body]).toEqual([query, 200, { count: 0, events: [] }]);
      const v1 = await http(system.url, 'GET', `/api/v1/activities${query}`, { token: stranger.token });
      expect([query, v1.status, v1.body]).toEqual([query, 200, { results: [], next_cursor: null }]);
    }
  });
});

describe.each(MODES)('isolation through the assistant server (%s)', (mode) => {
  const { system, accounts: [owner, stranger] } = useSystem(mode, { accounts: 2 });
  let ids: Record<string, string>;

  const tool = async (name: string, args: Record<string, unknown>) => {
    const response = await http(system.url, 'POST', '/mcp', {
      token: stranger.token,
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(response.status).toBe(200);
    return response.body.result;
  };

  beforeAll(async () => {
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: owner.token,
      json: {
        commands: [
          { type: 'project_add', uuid: `${mode}-iso-mcp-p`, temp_id: 'p', args: { name: 'Private plans' } },
          { type: 'item_add', uuid: `${mode}-iso-mcp-t`, temp_id: 't', args: { content: 'Private task', project_id: 'p' } },
          { type: 'filter_add', uuid: `${mode}-iso-mcp-f`, temp_id: 'f', args: { name: 'Private filter', query: 'today' } },
        ],
      },
    });
    ids = made.body.temp_id_mapping;
  });

  it("finds none of another user's objects and changes none of them", async () => {
    for (const [name, args] of [
      ['fetch-object', { type: 'task', id: ids['t'] }],
      ['fetch-object', { type: 'project', id: ids['p'] }],
      ['fetch-object', { type: 'filter', id: ids['f'] }],
      ['update-tasks', { tasks: [{ id: ids['t'], content: 'taken over' }] }],
      ['delete-object', { type: 'project', id: ids['p'] }],
      ['add-tasks', { tasks: [{ content: 'planted', projectId: ids['p'] }] }],
      ['fetch', { id: `task:${ids['t']}` }],
    ] as const) {
      const result = await tool(name, args);
      expect([name, result.isError, result.content[0].text]).toEqual([name, true, expect.stringMatching(/^[A-Z_]*NOT_FOUND: /)]);
    }
    for (const [name, args, key] of [
      ['find-tasks', { searchText: 'Private' }, 'tasks'],
      ['find-projects', {}, 'projects'],
      ['find-filters', {}, 'filters'],
      ['search', { query: 'Private' }, 'results'],
    ] as const) {
      const result = await tool(name, args);
      expect(JSON.stringify(result.structuredContent[key])).not.toContain('Private');
    }
    const ownerView = await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['items', 'projects'] } });
    expect(ownerView.body.items.map((item: any) => item.content)).toEqual(['Private task']);
    expect(ownerView.body.projects.some((project: any) => project.id === ids['p'])).toBe(true);
  });
});

describe.each(MODES)('isolation of app webhooks (%s)', (mode) => {
  // Receivers on this machine are allowed so both apps can hold one; nothing is delivered here.
  const { system } = useSystem(mode, { env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  const basic = (clientId: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` });
  const webhookCall = (method: string, headers: Record<string, string>, json?: unknown) => http(system.url, method, '/api/v1/apps/webhook', { headers, json });

  it("reads and changes only the app's own webhook, and only with that app's credentials", async () => {
    const first = await appOwner(system, 'First app');
    const second = await appOwner(system, 'Second app');
    const firstHook = { callback_url: 'http://127.0.0.1:9/first', events: ['item:added'], version: '1' };
    expect(await webhookCall('PUT', basic(first.app.clientId, first.app.clientSecret), firstHook)).toMatchObject({ status: 200, body: { client_id: first.app.clientId, ...firstHook } });

    // The second app sees its own (none yet), never the first's.
    const unset = (app: RegisteredApp) => ({ status: 200, body: { client_id: app.clientId, callback_url: null, events: [], version: '1' } });
    expect(await webhookCall('GET', basic(second.app.clientId, second.app.clientSecret))).toEqual(expect.objectContaining(unset(second.app)));
    // One app's id with the other's secret, a user's token, or no credentials: a coded 401, nothing read or changed.
    for (const headers of [
      basic(first.app.clientId, second.app.clientSecret),
      basic(second.app.clientId, first.app.clientSecret),
      { authorization: `Bearer ${first.account.token}` },
      {},
    ]) {
      for (const [method, json] of [['GET'], ['PUT', { ...firstHook, callback_url: 'http://127.0.0.1:9/taken' }], ['DELETE']] as const) {
        expect([method, await webhookCall(method, headers, json)]).toEqual([method, expect.objectContaining({ status: 401, body: expect.objectContaining({ error_tag: 'INVALID_CLIENT' }) })]);
      }
    }
    // The second app setting and removing its own webhook leaves the first's as it was.
    expect((await webhookCall('PUT', basic(second.app.clientId, second.app.clientSecret), { ...firstHook, callback_url: 'http://127.0.0.1:9/second' })).status).toBe(200);
    expect((await webhookCall('DELETE', basic(second.app.clientId, second.app.clientSecret))).status).toBe(200);
    expect(await webhookCall('GET', basic(first.app.clientId, first.app.clientSecret))).toMatchObject({ status: 200, body: { client_id: first.app.clientId, ...firstHook } });
  });

  it("refuses another owner's app on the console page, whatever the form says", async () => {
    const first = await appOwner(system, 'Console first');
    const second = await appOwner(system, 'Console second');
    const firstPage = await first.browser.get('/auth/apps');
    const firstAppId = /data-app-id="(\d+)"/.exec(firstPage.text)![1];
    const secondPage = await second.browser.get('/auth/apps');
    expect(secondPage.text).not.toContain(`data-app-id="${firstAppId}"`);
    const fields = { app_id: firstAppId, action: 'save', callback_url: 'http://127.0.0.1:9/planted', events: ['item:added'], version: '1' };
    const refused = await second.browser.submit('/auth/apps/webhook', secondPage, fields);
    expect(refused.status).toBe(404);
    expect(await webhookCall('GET', basic(first.app.clientId, first.app.clientSecret))).toMatchObject({ status: 200, body: { client_id: first.app.clientId, callback_url: null, events: [] } });
  });

  it("refuses one account's second factor to another's session: turning it off, or completing a log-in with its code", async () => {
    const first = await appOwner(system, 'Totp first');
    const second = await appOwner(system, 'Totp second');
    const started = await first.browser.submit('/auth/settings/two-factor/start', await first.browser.get('/auth/settings/two-factor'), {});
    const totp = new TOTP({ secret: Secret.fromBase32(/data-testid="totp-secret">([A-Z2-7]+)</.exec(started.text)![1]) });
    const on = await first.browser.submit('/auth/settings/two-factor/confirm', started, { otp: totp.generate({ timestamp: Date.now() - 30_000 }) });
    const recovery = /<li><code>([A-Z2-9-]{11})<\/code><\/li>/.exec(on.text)![1];
    const page = await second.browser.get('/auth/settings/two-factor');
    for (const otp of [totp.generate(), recovery]) {
      expect((await second.browser.submit('/auth/settings/two-factor/disable', page, { otp })).status).toBe(401);
      // No pending log-in of the first account in this browser: its code opens nothing.
      const stepped = await second.browser.submit('/auth/login/two-factor', page, { otp });
      expect([stepped.status, /data-error-tag="([A-Z_]+)"/.exec(stepped.text)?.[1]]).toEqual([401, 'TWO_FACTOR_EXPIRED']);
    }
    const [row] = await system.sql<{ on: boolean; left: number }>(
      `SELECT t.enabled_at IS NOT NULL AS on, (SELECT count(*)::int FROM auth.two_factor_recovery_codes r WHERE r.user_id = t.user_id AND r.used_at IS NULL) AS left FROM auth.two_factor t WHERE t.user_id = $1`,
      [first.account.userId],
    );
    expect(row).toEqual({ on: true, left: 10 });
  });
});

describe.each(MODES)('isolation of password reset and address change (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  const PASSWORD = 'isolation passphrase 1';

  async function loggedIn(): Promise<{ account: Account; email: string; browser: HttpBrowser }> {
    const account = await system.createAccount({ password: PASSWORD });
    const [{ email }] = await system.sql<{ email: string }>('SELECT email FROM auth.accounts WHERE id = $1', [account.userId]);
    const browser = new HttpBrowser(system.url);
    await logIn(browser, email, PASSWORD);
    return { account, email, browser };
  }
  const events = (subject: string, userId: string) =>
    system.sql<{ link: string }>(`SELECT payload->>'link' AS link FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2 ORDER BY id`, [subject, userId]);

  it("changes only the session's own address, whatever account the form names", async () => {
    const first = await loggedIn();
    const second = await loggedIn();
    const settings = await second.browser.get('/auth/settings');
    const moved = `isolated-${Date.now()}@example.test`;
    // A planted user id or old address is not read: the session says whose address changes.
    const asked = await second.browser.submit('/auth/settings/email', settings, { new_email: moved, current_password: PASSWORD, user_id: first.account.userId, email: first.email });
    expect(asked.status).toBe(200);
    expect(await events(AuthEvents.emailChangeRequested.name, first.account.userId)).toEqual([]);
    expect(await events(AuthEvents.emailChangeRequested.name, second.account.userId)).toHaveLength(1);
    // Another user's password does not move the first's address either.
    const withOther = await second.browser.submit('/auth/settings/email', settings, { new_email: `x-${moved}`, current_password: 'isolation passphrase 2' });
    expect(withOther.status).toBe(400);
  });

  it('a reset link changes the account it was made for only, whoever posts it', async () => {
    const first = await loggedIn();
    const second = await loggedIn();
    const anonymous = new HttpBrowser(system.url);
    const forgot = await anonymous.get('/auth/password/forgot');
    expect((await anonymous.submit('/auth/password/forgot', forgot, { email: first.email })).status).toBe(200);
    const [{ link }] = await events(AuthEvents.passwordResetRequested.name, first.account.userId);
    const path = new URL(link);
    // Posted from the second user's session: the link's account changes, the session's does not.
    const form = await second.browser.get(`${path.pathname}${path.search}`);
    expect((await second.browser.submit('/auth/password/reset', form, { token: path.searchParams.get('token')!, password: 'isolation passphrase 3' })).status).toBe(200);
    await logIn(new HttpBrowser(system.url), first.email, 'isolation passphrase 3');
    await logIn(new HttpBrowser(system.url), second.email, PASSWORD);
  });
});

describe.each(MODES)('isolation of notification settings (%s)', (mode) => {
  const { system, accounts: [owner, stranger] } = useSystem(mode, { accounts: 2 });
  const settingsOf = async (token: string) =>
    (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['notification_settings'] } })).body.settings_notifications as Record<string, { notify_email: boolean }>;

  it("changes only the caller's own settings (issue #33): another user's stay as they were", async () => {
    for (const notificationType of ['note_added', 'daily_digest']) {
      const answer = await http(system.url, 'PUT', '/api/v1/notification_setting', { token: owner.token, json: { notification_type: notificationType, service: 'email', dont_notify: false } });
      expect(answer.status).toBe(200);
    }
    const [mine, theirs] = [await settingsOf(owner.token), await settingsOf(stranger.token)];
    expect([mine['note_added'].notify_email, mine['daily_digest'].notify_email]).toEqual([true, true]);
    expect([theirs['note_added'].notify_email, theirs['daily_digest'].notify_email]).toEqual([false, false]);
  });
});
