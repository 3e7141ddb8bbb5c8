import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startObservingProxy } from './observing-proxy';

/**
 * Runs a client driver script from e2e/clients in its own Node process (native ESM, outside
 * Jest's module sandbox, exactly as an application would load the library) and parses the
 * one-line JSON report it prints. A non-zero exit (e.g. the SDK's validation throwing) fails.
 * `DOABLE_URL` (an origin) is reached through an observing proxy, so the `http()` observers (the
 * OpenAPI response check) see the client's exchanges too; what they refuse fails the run.
 */
export async function runClient(script: string, env: Record<string, string>, timeoutMs = 120_000): Promise<any> {
  const target = env['DOABLE_URL'];
  if (target === undefined || new URL(target).origin !== target.replace(/\/$/, '')) return spawnClient(script, env, timeoutMs);
  const proxy = await startObservingProxy(target);
  const refused = () => (proxy.failures.length === 0 ? '' : `\n${script}'s exchanges through the proxy:\n${proxy.failures.join('\n')}`);
  try {
    const report = await spawnClient(script, { ...env, DOABLE_URL: proxy.url }, timeoutMs);
    if (proxy.failures.length > 0) throw new Error(refused().trimStart());
    return report;
  } catch (error) {
    if (error instanceof Error && proxy.failures.length > 0 && !error.message.includes(proxy.failures[0])) error.message += refused();
    throw error;
  } finally {
    await proxy.close();
  }
}

function spawnClient(script: string, env: Record<string, string>, timeoutMs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'clients', script)], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${script} failed (exit ${code}):\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}
