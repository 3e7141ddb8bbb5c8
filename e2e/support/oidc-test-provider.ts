import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './processes';

/** What the test provider says about one person (the ID token's claims beside `sub`). */
export interface TestPerson {
  readonly sub?: string;
  readonly claims: { email?: string; email_verified?: boolean; name?: string };
}

export interface TestOidcProvider {
  readonly issuer: string;
  /** Registers the client (its redirect URIs are known only once the system is up) and the people. */
  configure(options: { clientId: string; clientSecret: string; redirectUris: string[]; accounts: Record<string, TestPerson> }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts e2e/support/oidc-test-provider.mjs (oidc-provider in a child process, on a loopback
 * port): a real, certified OpenID Connect provider, with devInteractions for signing in.
 */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const script = join(REPO_ROOT, 'e2e', 'support', 'oidc-test-provider.mjs');
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const messages: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];
  lines.on('line', (line) => {
    try {
      messages.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return;
    }
    waiting.splice(0).forEach((wake) => wake());
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const next = (key: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the test OpenID provider did not say ${key}: ${stderr}`)), 15_000);
      const look = () => {
        const found = messages.find((message) => key in message);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiting.push(look);
      };
      look();
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { issuer } = (await next('issuer')) as { issuer: string };
  return {
    issuer,
    async configure(options) {
      child.stdin.write(`${JSON.stringify(options)}\n`);
      await next('ready');
    },
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
