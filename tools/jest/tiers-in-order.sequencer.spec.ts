import { existsSync } from 'node:fs';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TiersInOrder = require('./tiers-in-order.sequencer.cjs') as new (options: object) => { sort(tests: FakeTest[]): FakeTest[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { seconds: KNOWN_SECONDS } = require('./slow-test-files.json') as { seconds: Record<string, number> };

interface FakeTest {
  path: string;
  duration?: number;
  context: { config: { rootDir: string; cache: boolean; displayName: { name: string } }; hasteFS: { getSize(path: string): number } };
}

const ROOT = '/repo';

/** A test file as Jest hands it to a sequencer on a fresh clone: no cached timings (cache off). */
function file(tier: string, path: string, size: number): FakeTest {
  return { path: join(ROOT, path), context: { config: { rootDir: ROOT, cache: false, displayName: { name: tier } }, hasteFS: { getSize: () => size } } };
}

describe('the test sequencer on a fresh clone', () => {
  it('runs the e2e tier first, its known-slow files first and longest first, then the rest biggest first', () => {
    const [slowest, second] = Object.entries(KNOWN_SECONDS).sort(([, a], [, b]) => b - a).map(([path]) => path);
    const tests = [
      file('unit', 'libs/a.spec.ts', 9_000),
      file('e2e', 'e2e/big.e2e-spec.ts', 50_000),
      file('integration', 'libs/b.integration-spec.ts', 1_000),
      file('e2e', second, 10),
      file('e2e', 'e2e/small.e2e-spec.ts', 2_000),
      file('e2e', slowest, 5),
    ];
    const order = new TiersInOrder({}).sort(tests).map((test) => test.path.slice(ROOT.length + 1));
    expect(order).toEqual([slowest, second, 'e2e/big.e2e-spec.ts', 'e2e/small.e2e-spec.ts', 'libs/b.integration-spec.ts', 'libs/a.spec.ts']);
  });

  it('lists only files that exist', () => {
    expect(Object.keys(KNOWN_SECONDS).filter((path) => !existsSync(join(__dirname, '../..', path)))).toEqual([]);
  });
});
