// The order Jest hands test files to its workers: the end-to-end files first, then the
// integration files, then the unit specs, each tier in Jest's own order (a file that failed last
// time first, then the longest by the last run's times, or by size where there are none, as on
// a fresh clone). Why: with two workers the run ends when the slower worker does, and sorting by
// size alone put small but slow e2e files (the official clients, the large account, the
// processes `npm start` launches) among the last, where one of them could leave a worker
// running on alone for a minute. Ordered by tier, the last files are unit specs of a second or
// two, which the two workers share out evenly.
const Sequencer = require('@jest/test-sequencer').default;

const TIERS = ['e2e', 'integration', 'unit'];
const rank = (test) => {
  const tier = TIERS.indexOf(test.context.config.displayName?.name);
  return tier === -1 ? TIERS.length : tier;
};

class TiersInOrder extends Sequencer {
  sort(tests) {
    // Array.prototype.sort is stable: within a tier, Jest's order is kept.
    return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = TiersInOrder;
