import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs a client driver script from e2e/clients in its own Node process (native ESM, outside
 * Jest's module sandbox, exactly as an application would load the library) and parses the
 * one-line JSON report it prints. A non-zero exit (e.g. the SDK's validation throwing) fails.
 */
export function runClient(script: string, env: Record<string, string>, timeoutMs = 120_000): Promise<any> {
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
