/**
 * Gateway settings for benchmark runs. The scenarios send hundreds of requests a second for a
 * handful of users, far past the per-user limits. What they measure is throughput; the limiter
 * has its own tests.
 */
export const NO_RATE_LIMITS = { RATE_LIMIT_SYNC_REQUESTS: '0', RATE_LIMIT_REST_REQUESTS: '0', RATE_LIMIT_AUTH_REQUESTS: '0' } as const;
