import { http } from '@doable/shared-testing';
import { type Account, MODES, startSystem, type SystemUnderTest } from './support/system-under-test';

/**
 * Security under load: many users syncing at once each get their own data, never another's.
 * (Embedded mode once answered 300 of 640 such requests with another account's data: PGlite's
 * socket server interleaved protocol messages of different connections. The serialising proxy
 * in front of it is what this guards.)
 */
const SYNC_PATHS = ['/api/v1/sync', '/sync/v9/sync', '/sync/v8/sync'];

describe.each(MODES)('isolation between concurrent users (%s)', (mode) => {
  let system: SystemUnderTest;
  const accounts: Account[] = [];

  beforeAll(async () => {
    system = await startSystem(mode);
    for (let index = 0; index < 12; index++) accounts.push(await system.createAccount());
  });

  afterAll(async () => {
    await system?.close();
  });

  it('answers every one of many concurrent syncs with the asking user own data', async () => {
    const outcomes = { own: 0, foreign: 0, failed: 0 };
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 48 }, async (_, index) => {
          const account = accounts[index % accounts.length];
          // Every Sync API version, in turn: v8 names the inbox `inbox_project` (an integer id).
          const path = SYNC_PATHS[index % SYNC_PATHS.length];
          const response = await http(system.url, 'POST', path, { token: account.token, json: { sync_token: '*', resource_types: ['user', 'projects'] } });
          const inbox = path === '/sync/v8/sync' ? response.body.user?.inbox_project : response.body.user?.inbox_project_id;
          if (response.status !== 200) outcomes.failed++;
          else if (response.body.user.email === account.email && response.body.projects.every((project: { id: unknown }) => project.id === inbox)) outcomes.own++;
          else outcomes.foreign++;
        }),
      );
    }
    expect(outcomes).toEqual({ own: 6 * 48, foreign: 0, failed: 0 });
  });
});
