import { http } from '@doable/shared-testing';
import { MODES } from './support/system-under-test';
import { useSystem } from './support/use-system';

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
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 48 }, async (_, index) => {
          const account = accounts[index % accounts.length];
          // Every Sync API version, in turn.
          const path = SYNC_PATHS[index % SYNC_PATHS.length];
          const read = path === '/API/v6/sync' ? { seq_no: 0 } : { sync_token: '*' };
          const response = await http(system.url, 'POST', path, { token: account.token, json: { ...read, resource_types: ['user', 'projects'] } });
          const seen = userAndProjects(path, response.body);
          if (response.status !== 200) outcomes.failed++;
          else if (seen.email === account.email && seen.projects.length === 1 && seen.projects.every((project) => project.id === seen.inbox)) outcomes.own++;
          else outcomes.foreign++;
        }),
      );
    }
    expect(outcomes).toEqual({ own: 6 * 48, foreign: 0, failed: 0 });
  });
});
