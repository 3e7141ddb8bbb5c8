// The embedded system (one process: every service, the in-process broker, PGlite in a worker
// thread) as a child of the suite, so it is measured alone, like a laptop install. Creates the
// bench accounts in process (PGlite is reachable only through this process's socket server), prints
// `READY <json>` and runs until SIGTERM.
// Usage: node embedded-host.js <run id> <account count>
import 'reflect-metadata';
import { AccountService } from '@doable/auth-oauth';
import { SyncSubjects } from '@doable/contracts-sync';
import { ServiceClient } from '@doable/shared-transport';
import { startEmbeddedSystem } from '@doable/system';
import { type BenchAccount, benchEmail, waitForProfiles } from './accounts';
import { ROOMY_PLANS } from './plans';
import { NO_RATE_LIMITS } from './rate-limits';

const BATCH = 1;

async function main(): Promise<void> {
  const [runId = 'bench', countText = '1'] = process.argv.slice(2);
  const count = Math.min(Number(countText), 1_000);
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const system = await startEmbeddedSystem({ dataDir: 'memory://', port: 0, env: { LOG_LEVEL: 'warn', ...NO_RATE_LIMITS, ...ROOMY_PLANS } });
  process.once('SIGTERM', () => {
    void system.close().finally(() => process.exit(0));
  });
  const accounts = system.services.get('auth-oauth')!.app.get(AccountService);
  const client = system.services.get('gateway')!.app.get(ServiceClient);
  const deadline = Date.now() + 150_000;
  let failedChecks = 0;
  const exists = (userId: string) =>
    client.request(SyncSubjects.userStatus, { userId }).then(
      (status) => status.exists,
      // A failed check is retried, not fatal: it is counted and reported (a product finding).
      () => (failedChecks++, false),
    );
  // One at a time, each profile waited for before the next account: back-to-back creation (even
  // in batches of 10) has hung the embedded system after ~70-120 accounts (an AccountService.create
  // that never returns; see docs/performance/embedded-findings.md). BATCH is kept to try larger ones again.
  const created: BenchAccount[] = [];
  while (created.length < count) {
    const batch: BenchAccount[] = [];
    for (let index = created.length; index < Math.min(count, created.length + BATCH); index++) {
      batch.push(await accounts.create({ email: benchEmail(runId, index), fullName: `Bench User ${index}`, timezone: 'UTC' }));
    }
    // Profiles are built from the user-created events; wait (bounded) until the batch's exist.
    for (const { userId } of batch) {
      while (!(await exists(userId))) {
        if (Date.now() > deadline) throw new Error(`bench accounts were created but only ${created.length} of ${count} profiles appeared in 150 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    created.push(...batch);
    if (created.length % 50 === 0) process.stderr.write(`embedded host: ${created.length} accounts ready after ${elapsed()}\n`);
  }
  if (failedChecks > 0) process.stderr.write(`embedded host: ${failedChecks} profile checks failed and were retried\n`);
  // Each user's roomy plan reaches sync through the plans service's outbox, after the profile.
  await waitForProfiles(system.databaseUrl, created.map((account) => account.userId));
  process.stdout.write(`READY ${JSON.stringify({ url: system.url, databaseUrl: system.databaseUrl, databaseThreadId: system.databaseThreadId, accounts: created })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`embedded host failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
