import { type ChildProcess, spawn } from 'node:child_process';
import { entryOf } from './processes';

/** `npm start` as a user runs it (the compiled embedded app), on a given data folder and a free port. */
export interface NpmStart {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Its base URL once it serves (from its `base URL:` line). */
  url(): string | undefined;
  /** Its first account's token, printed once on the folder's very first start. */
  token(): string | undefined;
  serves(): boolean;
  ended(): boolean;
  readonly exited: Promise<number | null>;
  /** SIGTERM (a graceful stop), then the exit code. */
  stop(): Promise<number | null>;
}

export function npmStart(dataDir: string, args: string[] = []): NpmStart {
  const child = spawn(process.execPath, [entryOf('embedded'), ...args], {
    env: { PATH: process.env['PATH'], DOABLE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let ended = false;
  // 'close' (after stdout and stderr have ended), not 'exit': what it printed last is read first.
  const exited = new Promise<number | null>((done) =>
    child.once('close', (code) => {
      ended = true;
      done(code);
    }),
  );
  return {
    child,
    pid: child.pid!,
    output: () => output,
    url: () => /base URL: +(\S+)/.exec(output)?.[1],
    token: () => /API token: +([0-9a-f]{40})/.exec(output)?.[1],
    serves: () => output.includes('Doable is running (embedded)'),
    ended: () => ended,
    exited,
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}
