import { z } from 'zod';

/**
 * How a process stops (stop-sequence.ts). The drain is the time a balancer needs to see the
 * readiness 503 and stop sending; the timeout bounds the whole stop, whatever the clients do.
 * Kubernetes' terminationGracePeriodSeconds must exceed preStop plus STOP_TIMEOUT_MS.
 */
export const stopEnvSchema = z.object({
  STOP_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  STOP_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
});

export interface StopSettings {
  readonly drainMs: number;
  readonly timeoutMs: number;
}

export function stopSettings(config: z.infer<typeof stopEnvSchema>): StopSettings {
  return { drainMs: config.STOP_DRAIN_MS, timeoutMs: config.STOP_TIMEOUT_MS };
}
