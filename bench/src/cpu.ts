import { readdir, readFile } from 'node:fs/promises';
import { Client } from 'pg';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** One thread of a process (/proc/<pid>/stat sums all of them; /proc/<tid>/stat too). */
export interface ThreadRef {
  readonly pid: number;
  readonly tid: number;
}

/** User + system CPU time of a process (or one of its threads) in ms, from /proc (Linux only; undefined elsewhere or when gone). */
export async function cpuMs(of: number | ThreadRef): Promise<number | undefined> {
  try {
    const stat = await readFile(typeof of === 'number' ? `/proc/${of}/stat` : `/proc/${of.pid}/task/${of.tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ")"; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The server processes of the connections open on one database (its PostgreSQL backends). */
export async function backendPids(databaseUrl: string, adminUrl: string): Promise<number[]> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** The pid of a process by its command name (e.g. the shared nats-server), if there is exactly one. */
export async function pidByName(name: string): Promise<number | undefined> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === name) found.push(Number(entry));
  }
  return found.length === 1 ? found[0] : undefined;
}

/** Group name -> the processes (pids) or single threads whose CPU time it sums. */
export type CpuGroups = ReadonlyMap<string, ReadonlyArray<number | ThreadRef>>;

const keyOf = (of: number | ThreadRef) => (typeof of === 'number' ? String(of) : `${of.pid}/${of.tid}`);

/**
 * CPU ms used by each group of processes between two readings. The groups are listed again at
 * the end: a process that appeared meanwhile (a new pool connection's backend) counts in full,
 * one that ended meanwhile is lost (it is not readable any more), so figures are lower bounds.
 */
export class CpuMeter {
  private before = new Map<string, number>();

  constructor(private readonly groups: () => Promise<CpuGroups>) {}

  private async read(groups: CpuGroups): Promise<Map<string, number>> {
    const readings = new Map<string, number>();
    for (const members of groups.values()) for (const member of members) readings.set(keyOf(member), (await cpuMs(member)) ?? 0);
    return readings;
  }

  async start(): Promise<void> {
    this.before = await this.read(await this.groups());
  }

  /** CPU ms per request of each group since start(). */
  async perRequest(requests: number): Promise<Record<string, number>> {
    const groups = await this.groups();
    const after = await this.read(groups);
    const result: Record<string, number> = {};
    for (const [name, members] of groups) {
      const used = members.reduce<number>((sum, member) => sum + Math.max(0, (after.get(keyOf(member)) ?? 0) - (this.before.get(keyOf(member)) ?? 0)), 0);
      result[name] = Math.round((used / Math.max(1, requests)) * 1000) / 1000;
    }
    return result;
  }
}

/** What clusterCpuGroups needs of a running cluster (bench/src/cluster.ts). */
interface ClusterProcesses {
  readonly children: ReadonlyMap<string, { readonly pid: number }>;
  readonly databaseUrl: string;
}

/**
 * Every process a cluster request can cost, in the groups the capacity model prices
 * (docs/operations/capacity.md): gateway, sync, rest, the other services together, the shared
 * nats-server, and the PostgreSQL backends of the cluster's database.
 */
export function clusterCpuGroups(cluster: ClusterProcesses, adminUrl: string): () => Promise<CpuGroups> {
  return async () => {
    const pidOf = (service: string) => cluster.children.get(service)!.pid;
    const others = [...cluster.children.keys()].filter((service) => !['gateway', 'sync', 'rest'].includes(service));
    const nats = await pidByName('nats-server');
    return new Map<string, number[]>([
      ['gateway', [pidOf('gateway')]],
      ['sync', [pidOf('sync')]],
      ['rest', [pidOf('rest')]],
      ['other services', others.map(pidOf)],
      ...(nats === undefined ? [] : [['nats-server', [nats]] as [string, number[]]]),
      ['postgres', await backendPids(cluster.databaseUrl, adminUrl)],
    ]);
  };
}
