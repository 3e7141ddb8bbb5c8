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
export async function runClient(script: string, env: Record<string, string>, timeoutMs = CLIENT_TIMEOUT_MS): Promise<any> {
  const target = env['DOABLE_URL'];
  if (target === undefined || new URL(target).origin !== target.replace(/\/$/, '')) return spawnClient(script, env, timeoutMs);
  const proxy = await startObservingProxy(target);
  const refused = () => (proxy.failures.length === 0 ? '' : `\n${script}'s exchanges through the proxy:\n${proxy.failures.join('\n')}`);
  try {
    const report = await spawnClient(script, { ...env, DOABLE_URL: proxy.url }, timeoutMs, () => proxy.inFlight());
    if (proxy.failures.length > 0) throw new Error(refused().trimStart());
    return report;
  } catch (error) {
    if (error instanceof Error && proxy.failures.length > 0 && !error.message.includes(proxy.failures[0])) error.message += refused();
    throw error;
  } finally {
    await proxy.close();
  }
}

/** Killed before the e2e test timeout (120 s), so a client that hangs fails with what it was waiting for. */
const CLIENT_TIMEOUT_MS = 90_000;

function spawnClient(script: string, env: Record<string, string>, timeoutMs: number, inFlight: () => string[] = () => []): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'clients', script)], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let waitingFor: string[] = [];
    const timer = setTimeout(() => {
      waitingFor = inFlight();
      child.kill('SIGKILL');
    }, timeoutMs);
    // 'close', not 'exit': 'exit' can come before the last of stdout has been read (seen on a
    // loaded CI machine as an empty report from a run that had printed it).
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const killed = waitingFor.length > 0 ? `killed after ${timeoutMs} ms, waiting for ${waitingFor.join(', ')}` : `killed after ${timeoutMs} ms`;
      if (code !== 0) reject(new Error(`${script} failed (${signal === 'SIGKILL' ? killed : `exit ${code ?? signal}`}):\n${stderr}`));
      else if (stdout.trim() === '') reject(new Error(`${script} exited 0 but printed no report:\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}
