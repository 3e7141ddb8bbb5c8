// The order Jest hands test files to its workers: the end-to-end files first, then the
// integration files, then the unit specs; within a tier, a file that failed last time first,
// then the longest first. Why: with two workers the run ends when the slower worker does, and a
// slow e2e file started among the last leaves one worker running on alone (a fuzz file of over
// 100 s did). Ordered so, the last files are unit specs of a second or two, which the two
// workers share out evenly.
//
// "The longest" is Jest's timing of the file's last run when this checkout has one; a fresh
// clone (CI) has none, and Jest would fall back to file size, which puts small but slow files
// (a browser flow, processes started and stopped, a fuzz loop) late. So the known-slow files
// (slow-test-files.json: seconds measured in a full `npm test` run) stand in for the timings a
// fresh clone lacks. Files in neither come after those, biggest first. When the slowest files
// change, `node tools/scripts/test-slow-files.mjs` rewrites the list from the last run's results.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { seconds: KNOWN_SECONDS } = require('./slow-test-files.json');

const TIERS = ['e2e', 'integration', 'unit'];
const tierOf = (test) => {
  const tier = TIERS.indexOf(test.context.config.displayName?.name);
  return tier === -1 ? TIERS.length : tier;
};

class TiersInOrder extends Sequencer {
  /** Jest's timing of the file's last run, else the checked-in one (ms), else undefined. */
  time(test) {
    const measured = super.time(test);
    if (measured != null) return measured;
    const known = KNOWN_SECONDS[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    return known === undefined ? undefined : known * 1000;
  }

  sort(tests) {
    const size = new Map();
    const sizeOf = (test) => {
      if (!size.has(test.path)) size.set(test.path, test.context.hasteFS.getSize(test.path) ?? 0);
      return size.get(test.path);
    };
    const failed = new Map(tests.map((test) => [test, this.hasFailed(test)]));
    for (const test of tests) test.duration = this.time(test);
    return [...tests].sort(
      (a, b) =>
        tierOf(a) - tierOf(b) ||
        Number(failed.get(b)) - Number(failed.get(a)) ||
        // A file with a time before one without; of two with, the longer first.
        Number(b.duration != null) - Number(a.duration != null) ||
        (b.duration ?? 0) - (a.duration ?? 0) ||
        sizeOf(b) - sizeOf(a),
    );
  }
}

module.exports = TiersInOrder;
