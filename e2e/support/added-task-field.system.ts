import { TASK_FIELDS } from '@doable/contracts-sync';
import { syncMigrations } from '@doable/sync-domain';
import type { MigrationInterface } from 'typeorm';
import { TaskEstimate1799999999000 } from './added-task-field';
import { startSystem } from './system-under-test';

/**
 * A child process (run from dist/ by e2e/task-field-added.e2e-spec.ts, as `node --require
 * added-task-field.preload.js added-task-field.system.js <mode>`) running the whole system, in
 * one mode, from the same compiled code as every other e2e system, with one task field more: the
 * line of added-task-field.ts at the end of the task table (the preload puts it there before
 * anything derives from the table) and its migration after the sync service's. A process of its
 * own because the e2e workers' systems share one module cache. It prints one JSON line (the
 * system's address, its database and two accounts), then runs until SIGTERM or until its parent
 * goes (stdin closes), and closes the system either way.
 */
async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'embedded' && mode !== 'cluster') throw new Error(`usage: added-task-field.system.js embedded|cluster (got ${mode ?? 'nothing'})`);
  if (!('estimate' in TASK_FIELDS)) throw new Error('the task table has no estimate line: start this with --require added-task-field.preload.js');
  const migrations: Array<new () => MigrationInterface> = syncMigrations;
  migrations.push(TaskEstimate1799999999000);
  // Named after the test run, so what a crashed child leaves is removed with the run's systems.
  const run = process.env['DOABLE_TEST_RUN_ID'];
  const system = await startSystem(mode, { label: run ? `shared-${run}-field` : 'field', env: { BACKUP_POLL_SECONDS: '1' } });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= system.close().then(() => process.exit(0)));
  process.once('SIGTERM', () => void close());
  process.stdin.once('close', () => void close());
  process.stdin.resume();
  const accounts = [await system.createAccount(), await system.createAccount()];
  process.stdout.write(`${JSON.stringify({ url: system.url, databaseUrl: system.databaseUrl, accounts })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
