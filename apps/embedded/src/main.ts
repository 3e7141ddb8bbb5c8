import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@doable/shared-config';
import { createLogger } from '@doable/shared-logging';
import { stopEnvSchema, stopGracefully, stopSettings, watchParent } from '@doable/shared-runtime';
import { claimDataFolder, DataFolderBusyError, describeOwner, removeRuntimeFile } from '@doable/shared-database';


/**
 * `npm start`: the whole product in one process with an embedded database (no servers needed).
 * Data lives under DOABLE_DATA_DIR (default ./data). On the very first start an account is
 * created and its token printed once. `--wait`: if another process has the data folder, wait
 * until it gives it up instead of refusing.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { wait: { type: 'boolean', default: false } } });
  const dataDir = resolve(process.env['DOABLE_DATA_DIR'] ?? 'data');
  const port = Number(process.env['PORT'] ?? 8080);
  const started = Date.now();
  // PGlite's data folder must have one owner: a second instance would corrupt it. The lock is
  // taken before the database opens and given up only after it closed (DataFolderOwnership).
  const claim = await claimDataFolder(dataDir, {
    holder: 'npm start',
    waitUntilFree: values.wait,
    onWaiting: (owner) =>
      process.stderr.write(
        values.wait ? `Waiting for ${describeOwner(owner)} to free the data folder ${dataDir}\n` : `The data folder ${dataDir} is held by ${describeOwner(owner)}: waiting for it to serve or leave\n`,
      ),
  });
  if (claim.kind === 'served') {
    process.stderr.write(
      `Doable is already running on this data folder: ${describeOwner(claim.owner)}.\nStop it first, start with \`npm start -- --wait\` to wait for it, or set DOABLE_DATA_DIR to another folder.\n`,
    );
    process.exit(1);
  }
  const { ownership } = claim;
  // Loaded only now (seconds on a busy machine): a refused start answers without it.
  const { ensureFirstAccount, startEmbeddedSystem } = await import('@doable/system');
  // PGlite runs in a worker thread; if that thread dies the process ends (code 1) so a
  // supervisor restarts it, instead of serving nothing but errors.
  const onDatabaseLost = (error: Error) => {
    process.stderr.write(`Doable stops: ${error.message}\n`);
    void removeRuntimeFile(dataDir, process.pid).finally(() => process.exit(1));
  };
  const system = await startEmbeddedSystem({ dataDir: resolve(dataDir, 'pg'), filesDir: resolve(dataDir, 'files'), port, onDatabaseLost });
  await ownership.publish({ url: system.url, databaseUrl: system.databaseUrl });

  const first = await ensureFirstAccount(system.services, process.env['DOABLE_FIRST_EMAIL'] ?? 'admin@doable.local', 'Admin');
  const lines = [
    `Doable is running (embedded) in ${Date.now() - started} ms`,
    `  base URL:  ${system.url}`,
    `  sign up:   ${system.url}/auth/signup  (then log in at ${system.url}/auth/login; apps at ${system.url}/auth/apps)`,
    `  data:      ${dataDir}`,
  ];
  if (first) {
    lines.push(
      `  first account: ${first.email}`,
      `  API token:     ${first.token}`,
      '  (shown once: keep it; `npm run cli -- reset-token --email <email>` makes a new one;',
      `   \`npm run cli -- set-password --email ${first.email} --password <password>\` lets it log in to the pages)`,
    );
  } else {
    lines.push('  accounts exist already; `npm run cli -- create-account --email <email> --name <name>` adds one');
  }
  lines.push(`  try: curl -s -X POST ${system.url}/api/v1/sync -H "Authorization: Bearer <token>" -d sync_token='*' -d resource_types='["all"]'`);
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  // No balancer watches this process's readiness: no drain unless STOP_DRAIN_MS asks for one.
  const settings = stopSettings(loadConfig('stop', stopEnvSchema, { STOP_DRAIN_MS: '0', ...process.env }));
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    // The same sequence as a cluster service, over every service; the data folder is freed last
    // (DataFolderOwnership: the database closes, then the runtime file goes, then the lock).
    void stopGracefully(
      { ...system, close: () => ownership.close(() => system.close()) },
      { settings, logger: createLogger('doable', 'info'), reason, exit: (code) => process.exit(code) },
    );
  };
  // SIGTERM from a supervisor, SIGHUP from a closed terminal, and a parent that died without
  // passing a signal on (npm's `sh -c` killed): all stop the system and free the data folder.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  watchParent(stop, { pollPpidMs: 500 });
}

main().catch((err: unknown) => {
  if (err instanceof DataFolderBusyError) {
    process.stderr.write(`Doable cannot start: ${err.message}. Try again once it has ended, or set DOABLE_DATA_DIR to another folder.\n`);
    process.exit(1);
  }
  process.stderr.write(`Doable failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
