import { http } from '@doable/shared-testing';
import { useSystem } from './support/use-system';

/**
 * A collaborator's role over REST (api/v1): a refused command is an HTTP 403, an assignment to a
 * member is accepted and to a stranger refused. Memberships are written straight into the
 * database here (share_project is tested where it is built); the rules are sync's,
 * roles.integration-spec.ts covers them command by command. Embedded mode only: the refusal is
 * mapped the same way in both.
 */
describe('project roles over REST (embedded)', () => {
  const { system, accounts: [owner, member, stranger] } = useSystem('embedded', { accounts: 3 });
  const post = (path: string, json: unknown, token: string) => http(system.url, 'POST', path, { json, token });
  let projectId: string;

  beforeAll(async () => {
    const created = await post('/api/v1/projects', { name: 'Shared over REST' }, owner.token);
    expect(created.status).toBe(200);
    projectId = created.body.id as string;
    await system.sql(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'COMPLETE_ONLY', 1)`, [projectId, member.userId]);
  });

  it('answers 403 to a COMPLETE_ONLY member adding a task, 404 to a stranger, and lets the member complete one', async () => {
    const refused = await post('/api/v1/tasks', { content: 'Not allowed', project_id: projectId }, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect((await post('/api/v1/tasks', { content: 'Not visible', project_id: projectId }, stranger.token)).status).toBe(404);

    const task = await post('/api/v1/tasks', { content: 'For the member', project_id: projectId, assignee_id: member.userId }, owner.token);
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({ responsible_uid: member.userId, assigned_by_uid: owner.userId });
    expect((await post(`/api/v1/tasks/${task.body.id as string}/close`, {}, member.token)).status).toBe(204);
    expect((await post('/api/v1/tasks', { content: 'To a stranger', project_id: projectId, assignee_id: stranger.userId }, owner.token)).status).toBe(400);
  });

  it('refuses a READ_WRITE member granting ADMIN on /api/v1/sync and /sync/v9/sync (issue #28), and lets them grant READ_WRITE', async () => {
    const created = await post('/api/v1/projects', { name: 'No escalation' }, owner.token);
    const shared = created.body.id as string;
    await system.sql(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', 1)`, [shared, member.userId]);
    for (const path of ['/api/v1/sync', '/sync/v9/sync']) {
      const uuid = `escalate-${path}`;
      const reply = await post(path, { commands: [{ type: 'share_project', uuid, args: { project_id: shared, email: stranger.email, role: 'ADMIN' } }] }, member.token);
      expect(reply.status).toBe(200);
      expect(reply.body.sync_status[uuid]).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403, error_extra: { argument: 'role' } });
    }
    expect(await system.sql(`SELECT 1 FROM sync.project_invitations WHERE project_id = $1`, [shared])).toEqual([]);
    const granted = await post('/api/v1/sync', { commands: [{ type: 'share_project', uuid: 'grant-own', args: { project_id: shared, email: stranger.email, role: 'READ_WRITE' } }] }, member.token);
    expect(granted.body.sync_status['grant-own']).toBe('ok');
  });
});
