import { join } from 'node:path';
import { REPO_ROOT } from './processes';

/**
 * The plan catalogue of benchmark runs: one plan whose limits no scenario reaches (S8 makes 200
 * projects per member; the built-in free plan allows 5). What they measure is throughput; the
 * limits have their own tests (e2e/plans-limits.e2e-spec.ts).
 */
export const ROOMY_PLANS = { PLANS_FILE: join(REPO_ROOT, 'bench', 'plans.bench.json') } as const;
