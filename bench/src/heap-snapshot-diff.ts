import { readFileSync } from 'node:fs';

/**
 * What two V8 heap snapshots hold, by kind of object, and what grew between them: how S6's leak
 * question was answered (docs/performance/s6-memory.md). A snapshot is written after a full GC, so it holds only
 * what is reachable; a leak shows as a constructor whose count grows with the requests served.
 *
 *   node dist/bench/src/heap-snapshot-diff.js before.heapsnapshot after.heapsnapshot
 */

interface Group {
  count: number;
  bytes: number;
}

interface Summary {
  readonly groups: Map<string, Group>;
  readonly objects: number;
  readonly bytes: number;
}

interface SnapshotFile {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[], ...unknown[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Strings, numbers, compiled code and V8's hidden objects are grouped by type alone: their names are their contents. */
const BY_TYPE_ONLY: ReadonlySet<string> = new Set(['string', 'concatenated string', 'sliced string', 'number', 'code', 'hidden']);

export function summarise(path: string): Summary {
  const file = JSON.parse(readFileSync(path, 'utf8')) as SnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const groups = new Map<string, Group>();
  let bytes = 0;
  for (let i = 0; i < file.nodes.length; i += fields.length) {
    const type = types[file.nodes[i + typeAt]];
    const name = BY_TYPE_ONLY.has(type) ? '' : file.strings[file.nodes[i + nameAt]].slice(0, 60);
    const key = `${type}:${name}`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += file.nodes[i + sizeAt];
    groups.set(key, group);
    bytes += file.nodes[i + sizeAt];
  }
  return { groups, objects: file.nodes.length / fields.length, bytes };
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);

/** The report: totals, then the groups that grew most by count and by size. */
export function formatDiff(before: Summary, after: Summary, top = 25): string {
  const lines = [`before: ${before.objects} objects, ${mib(before.bytes)} MiB; after: ${after.objects} objects, ${mib(after.bytes)} MiB (${after.objects - before.objects} objects, ${mib(after.bytes - before.bytes)} MiB)`];
  const rows = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((key) => {
    const [was, now] = [before.groups.get(key) ?? { count: 0, bytes: 0 }, after.groups.get(key) ?? { count: 0, bytes: 0 }];
    return { key, count: now.count, grew: now.count - was.count, grewBytes: now.bytes - was.bytes };
  });
  const line = (row: (typeof rows)[number]) => `${row.grew} ${mib(row.grewBytes)} ${row.count} ${row.key}`;
  lines.push('', 'grew most, by count (grew, MiB, now, type:constructor)', ...rows.sort((x, y) => y.grew - x.grew).slice(0, top).map(line));
  lines.push('', 'grew most, by size', ...rows.sort((x, y) => y.grewBytes - x.grewBytes).slice(0, top).map(line));
  return `${lines.join('\n')}\n`;
}

if (require.main === module) {
  const [before, after] = process.argv.slice(2);
  if (!before || !after) {
    process.stderr.write('usage: node dist/bench/src/heap-snapshot-diff.js before.heapsnapshot after.heapsnapshot\n');
    process.exit(2);
  }
  process.stdout.write(formatDiff(summarise(before), summarise(after)));
}
