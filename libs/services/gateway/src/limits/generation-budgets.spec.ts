import { generationBudgets, generationBudgetsEnv } from './generation-budgets';

describe('generation budgets from the environment', () => {
  it("defaults to the spec's 50 sync requests per minute for v7 and no budget of their own for the others", () => {
    expect(generationBudgets(generationBudgetsEnv.parse({}))).toEqual({ 'sync-v7': { limit: 50, windowMs: 60_000 } });
  });

  it('lets the operator set, change or turn off each generation', () => {
    const budgets = generationBudgets(
      generationBudgetsEnv.parse({ RATE_LIMIT_SYNC_V7_REQUESTS: '0', RATE_LIMIT_SYNC_V8_REQUESTS: '120', RATE_LIMIT_SYNC_V8_WINDOW_SECONDS: '300', RATE_LIMIT_FIRST_GENERATION_REQUESTS: '10' }),
    );
    expect(budgets).toEqual({ 'sync-v8': { limit: 120, windowMs: 300_000 }, 'first-generation': { limit: 10, windowMs: 60_000 } });
  });

  it('refuses a negative budget or an empty window', () => {
    expect(generationBudgetsEnv.safeParse({ RATE_LIMIT_SYNC_V9_REQUESTS: '-1' }).success).toBe(false);
    expect(generationBudgetsEnv.safeParse({ RATE_LIMIT_SYNC_V7_WINDOW_SECONDS: '0' }).success).toBe(false);
  });
});
