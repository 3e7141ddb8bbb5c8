// Where a service's CPU goes, from a V8 .cpuprofile (`npm run bench -- S1 --cpu-prof` writes them
// for the gateway and sync): self time grouped by what the code is. Also a CLI:
// node dist/bench/src/profile-summary.js <file.cpuprofile>...
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** First match wins: more specific patterns first. */
const CATEGORIES: ReadonlyArray<readonly [string, RegExp]> = [
  ['HTTP: express, router, body parsing', /node_modules\/(express|router|body-parser|raw-body|passport[^/]*|on-finished|finalhandler|send|qs|type-is|content-type|iconv-lite)\//],
  ['Nest core, platform-express, microservices, rxjs', /node_modules\/(@nestjs|rxjs|reflect-metadata)\//],
  ['NATS client', /node_modules\/@nats-io\//],
  ['SQL: pg driver, typeorm', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|typeorm)\//],
  ['validation: zod', /node_modules\/zod\//],
  ['logging, metrics: pino, prom-client', /node_modules\/(pino[^/]*|prom-client|sonic-boom|thread-stream)\//],
  ['other dependencies', /node_modules\//],
  ['product code (dist/libs, dist/apps)', /\/dist\/(libs|apps)\//],
  ['node: http, net, streams', /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|js_stream|timers|async_hooks))/],
  ['node: other', /^node:/],
];

const STARTUP = 'module loading and compilation (startup)';
const STARTUP_FUNCTIONS = /^(wrapSafe|compileSourceTextModule|compileForInternalLoader|internalModuleStat|readFileUtf8|readFileSync|realpathSync|lstat|open|readPackage|ModuleJobSync|Module\._load|Module\._findPath)$/;

function categoryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (STARTUP_FUNCTIONS.test(functionName) || /^node:internal\/(modules|bootstrap)\//.test(url)) return STARTUP;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8/native (program)';
    // One write syscall per outgoing message: HTTP responses, NATS publishes, pg queries.
    if (/^(writeBuffer|writev|writeUtf8String|writeLatin1String|writeAsciiString)$/.test(functionName)) return 'socket writes (a syscall per message)';
    if (functionName === 'parse' || functionName === 'stringify') return 'JSON parse/stringify';
    if (functionName === 'runMicrotasks') return 'promise/microtask machinery';
    return 'other native/builtins';
  }
  if (url.startsWith('node:internal/async_hooks') || url.startsWith('node:async_hooks')) return 'async context (async_hooks)';
  if (url.startsWith('node:internal/crypto')) return 'crypto (token hashing)';
  return CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
}

export interface ProfileBreakdown {
  readonly file: string;
  /** Busy milliseconds, idle and startup excluded. */
  readonly busyMs: number;
  readonly startupMs: number;
  /** Share of busy time per category, largest first. */
  readonly shares: ReadonlyArray<{ readonly category: string; readonly percent: number }>;
}

export async function summariseProfile(file: string): Promise<ProfileBreakdown> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const category = categoryOf(node);
    totals.set(category, (totals.get(category) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  totals.delete('idle');
  const startupMs = Math.round(totals.get(STARTUP) ?? 0);
  totals.delete(STARTUP);
  const busyMs = [...totals.values()].reduce((sum, value) => sum + value, 0);
  const shares = [...totals]
    .map(([category, ms]) => ({ category, percent: Math.round((ms / Math.max(busyMs, 1)) * 1000) / 10 }))
    .sort((a, b) => b.percent - a.percent);
  return { file: basename(file), busyMs: Math.round(busyMs), startupMs, shares };
}

export function formatBreakdown(breakdown: ProfileBreakdown): string {
  return `${breakdown.file} (busy ${breakdown.busyMs} ms after startup; startup ${breakdown.startupMs} ms not counted):\n${breakdown.shares.map(({ category, percent }) => `  ${String(percent).padStart(5)}%  ${category}`).join('\n')}\n`;
}

if (require.main === module) {
  void (async () => {
    for (const file of process.argv.slice(2)) process.stdout.write(formatBreakdown(await summariseProfile(file)));
  })();
}
