import { join } from 'node:path';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import { breakingChanges } from './breaking-changes';
import { currentContracts } from './contract-snapshot';
import { readReleaseRecords, releasesToKeep } from './release-files';

/**
 * HEAD's contracts against every committed release it must keep working beside. A failure names
 * the subject, the rule and the path: make the change compatible (an optional field, a new
 * `.vN` subject beside the old one) instead of editing the release's record.
 */
const RELEASES_DIR = join(__dirname, '..', '..', '..', '..', 'contracts', 'releases');
const records = readReleaseRecords(RELEASES_DIR);
const head = currentContracts();

describe('contract compatibility with the committed releases', () => {
  it("has a record of this version's release (npm run contracts:snapshot makes it)", () => {
    expect(records.map((record) => record.release)).toContain(PRODUCT_VERSION);
  });

  it.each(releasesToKeep(records, PRODUCT_VERSION).map((record) => [record.release, record] as const))('breaks nothing release %s sends or reads', (_release, record) => {
    expect(breakingChanges(record.contracts, head)).toEqual([]);
  });

  it('fails on a contract broken since the release (a field dropped from a reply, a subject removed)', () => {
    const record = records.find((candidate) => candidate.release === PRODUCT_VERSION)!;
    // The release's own record, broken by hand: the check must see it whatever HEAD holds.
    const broken = structuredClone(record.contracts) as Record<string, (typeof head)[string]>;
    const status = broken['sync.user.status.v1'];
    if (status?.kind !== 'request' || !status.reply) throw new Error('sync.user.status.v1 has a reply schema in this release');
    broken['sync.user.status.v1'] = { ...status, reply: { ...status.reply, properties: {}, required: [] } };
    delete broken['plans.user-limits.get.v1'];
    expect(breakingChanges(record.contracts, broken).map(({ subject, rule, where }) => ({ subject, rule, where }))).toEqual([
      { subject: 'plans.user-limits.get.v1', rule: 'subject-removed', where: undefined },
      { subject: 'sync.user.status.v1', rule: 'field-removed', where: 'reply $.exists' },
    ]);
  });
});
