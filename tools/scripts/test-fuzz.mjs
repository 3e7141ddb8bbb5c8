#!/usr/bin/env node
// `npm run test:fuzz`: the fuzz suite (e2e/fuzz) at full strength, in both modes. `npm test`
// runs the same suite with 1 request per target per mode (2 shared out); this run makes FUZZ_PER_TARGET (default 26)
// per route and per command type: about 5,150 generated requests per mode, over 10,000 in all,
// with a new seed each time unless FUZZ_SEED is set (printed, so a failing run can be replayed).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const perTarget = process.env.FUZZ_PER_TARGET ?? '26';
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
// The access policy's random sharing sequences (sync access-policy/sharing-sequences): 4 under `npm test`.
const policyRuns = process.env.POLICY_RUNS ?? '200';
console.log(`fuzzing with FUZZ_PER_TARGET=${perTarget} POLICY_RUNS=${policyRuns} FUZZ_SEED=${seed}`);
const run = spawnSync(process.execPath, [fileURLToPath(new URL('./test.mjs', import.meta.url)), 'e2e/fuzz', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_PER_TARGET: perTarget, FUZZ_SEED: seed },
});
if (run.status !== 0) process.exit(run.status ?? 1);
const policy = spawnSync(process.execPath, [fileURLToPath(new URL('../../node_modules/jest/bin/jest.js', import.meta.url)), '--ci', '--selectProjects', 'integration', '--testPathPatterns', 'access-policy/sharing-sequences'], {
  stdio: 'inherit',
  env: { ...process.env, POLICY_RUNS: policyRuns, FUZZ_SEED: seed },
});
process.exit(policy.status ?? 1);
