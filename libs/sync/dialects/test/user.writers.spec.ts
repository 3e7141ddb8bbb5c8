import { writeOldSyncUser } from '../src/legacy/old-sync-writers';
import { user } from '../testing/sync-read.fixture';
import { writeSyncUser } from '../src/shared/user.writers';

describe('the user object’s karma (stats/karma.ts)', () => {
  it('shows the stored karma and trend in every generation, the old ones writing no trend as "-"', () => {
    const climbing = { ...user, karma: 512, karma_trend: 'up' as const };
    expect(writeSyncUser(climbing)).toMatchObject({ karma: 512, karma_trend: 'up' });
    expect(writeOldSyncUser(climbing)).toMatchObject({ karma: 512, karma_trend: 'up' });
    expect(writeOldSyncUser({ ...user, karma: 0, karma_trend: 'none' })).toMatchObject({ karma: 0, karma_trend: '-' });
  });
});
