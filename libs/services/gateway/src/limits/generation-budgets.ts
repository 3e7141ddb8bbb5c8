import { z } from 'zod';
import type { Budget, SyncGeneration } from './rate-limiter';
import { SYNC_GENERATIONS } from './rate-limiter';

/** The spec's only per-generation figure (§8): "sync requests per user: 50 per minute (stated for v7)". */
export const V7_SYNC_REQUESTS_PER_MINUTE = 50;

const requests = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const windowSeconds = () => z.coerce.number().int().positive().default(60);

/**
 * A Sync API generation's own budget per user, on top of the shared `RATE_LIMIT_SYNC_REQUESTS`:
 * `RATE_LIMIT_<GEN>_REQUESTS` per `RATE_LIMIT_<GEN>_WINDOW_SECONDS`. The spec states one for v7
 * only; the others default to 0 (no budget of their own: only the shared one).
 */
export const generationBudgetsEnv = z.object({
  RATE_LIMIT_SYNC_API_V1_REQUESTS: requests(0),
  RATE_LIMIT_SYNC_API_V1_WINDOW_SECONDS: windowSeconds(),
  RATE_LIMIT_SYNC_V9_REQUESTS: requests(0),
  RATE_LIMIT_SYNC_V9_WINDOW_SECONDS: windowSeconds(),
  RATE_LIMIT_SYNC_V8_REQUESTS: requests(0),
  RATE_LIMIT_SYNC_V8_WINDOW_SECONDS: windowSeconds(),
  RATE_LIMIT_SYNC_V7_REQUESTS: requests(V7_SYNC_REQUESTS_PER_MINUTE),
  RATE_LIMIT_SYNC_V7_WINDOW_SECONDS: windowSeconds(),
  RATE_LIMIT_SYNC_V6_REQUESTS: requests(0),
  RATE_LIMIT_SYNC_V6_WINDOW_SECONDS: windowSeconds(),
  RATE_LIMIT_FIRST_GENERATION_REQUESTS: requests(0),
  RATE_LIMIT_FIRST_GENERATION_WINDOW_SECONDS: windowSeconds(),
});
export type GenerationBudgetsEnv = z.infer<typeof generationBudgetsEnv>;

/** The generations' budgets as the rate limiter takes them (those set to 0 left out). */
export function generationBudgets(config: GenerationBudgetsEnv): Partial<Record<SyncGeneration, Budget>> {
  const values = config as unknown as Record<string, number>;
  const budgets: Partial<Record<SyncGeneration, Budget>> = {};
  for (const generation of SYNC_GENERATIONS) {
    const suffix = generation.toUpperCase().replace(/-/g, '_');
    const limit = values[`RATE_LIMIT_${suffix}_REQUESTS`] ?? 0;
    if (limit > 0) budgets[generation] = { limit, windowMs: (values[`RATE_LIMIT_${suffix}_WINDOW_SECONDS`] ?? 60) * 1000 };
  }
  return budgets;
}
