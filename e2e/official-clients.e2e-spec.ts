import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MODES, startSystem, type SystemUnderTest } from './support/system-under-test';

/** Runs a client driver script (native ESM, outside Jest's module sandbox) and parses its report. */
function runClient(script: string, env: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'clients', script)], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${script} failed (exit ${code}):\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

/** Unmodified real clients against the server: what users of those libraries will see. */
describe.each(MODES)('official and community clients (%s)', (mode) => {
  let system: SystemUnderTest;

  beforeAll(async () => {
    system = await startSystem(mode);
  });

  afterAll(async () => {
    await system?.close();
  });

  it('@doist/todoist-sdk 17: sync() full, with temp ids, incremental, all validated by the SDK', async () => {
    const account = await system.createAccount();
    const report = await runClient('todoist-sdk-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    expect(report.full).toEqual({ fullSync: true, user: account.email, projects: ['Inbox'], items: 0 });
    expect(report.write.statuses).toEqual(['ok', 'ok', 'ok']);
    expect(report.write.mapped).toEqual(['sdkproject', 'sdksubtask', 'sdktask']);
    expect(report.write.projects).toEqual(['SDK project']);
    expect(report.write.items).toEqual(['SDK subtask', 'SDK task']);
    expect(report.write.due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(report.edit.statuses).toEqual(['ok', 'ok']);
    expect(report.edit.items).toEqual([
      { content: 'SDK subtask', isDeleted: true },
      { content: 'SDK task (edited)', isDeleted: false },
    ]);
    expect(report.quiet).toEqual({ fullSync: false, items: 0, projects: 0 });
    expect(report.refused).not.toBe('accepted');
  });

  it.each(['/sync/v9', '/api/v1'])('todoist@1.1.0 against %s: one form-encoded command per request', async (path) => {
    const account = await system.createAccount();
    const report = await runClient('todoist-community.mjs', { DOABLE_SYNC_ENDPOINT: `${system.url}${path}`, DOABLE_TOKEN: account.token });
    expect(report).toEqual({
      inbox: ['Inbox'],
      added: { project: 'Community project', task: 'Community task', sameProject: true },
      afterClose: [true],
      afterDelete: false,
      projects: ['Community project', 'Inbox'],
    });
  });
});
