import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Machine } from './machine';
import { missExplanation } from './misses';
import { REPO_ROOT } from './processes';
import type { ScenarioRow } from './scenarios/scenario';

export interface Report {
  readonly machine: Machine;
  readonly command: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly elapsedS: number;
  readonly rows: readonly ScenarioRow[];
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return value < 0.01 ? value.toExponential(1) : String(Math.round(value * 100) / 100);
}

function formatFigures(figures: Readonly<Record<string, number>> | undefined): string {
  if (!figures) return '-';
  return Object.entries(figures)
    .map(([name, value]) => `${name} ${formatNumber(value)}`)
    .join(', ');
}

function verdict(row: ScenarioRow): string {
  if (row.status === 'pending') return 'pending';
  if (row.status === 'failed') return 'FAILED';
  if (row.valid === false) return 'INVALID';
  return row.pass ? 'pass' : 'MISS';
}

function cells(row: ScenarioRow): string[] {
  return [row.id, row.mode, row.what, formatFigures(row.product), formatFigures(row.baseline), row.ratio ? formatNumber(row.ratio.value) : '-', row.target, verdict(row)];
}

const HEADER = ['id', 'mode', 'what', 'product', 'baseline', 'ratio', 'target', 'result'];

/** A plain-text table for the terminal, then each row's notes. */
export function textTable(rows: readonly ScenarioRow[]): string {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, column) => Math.max(...table.map((line) => line[column].length)));
  const lines = table.map((line) => line.map((cell, column) => cell.padEnd(widths[column])).join(' | '));
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('-+-'));
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.id} ${row.mode}: ${note}`));
  return `${lines.join('\n')}\n\nnotes:\n${notes.join('\n')}\n`;
}

function markdownTable(rows: readonly ScenarioRow[]): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  return [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${cells(row).map(escape).join(' | ')} |`)].join('\n');
}

/** bench/results/<date>.json and bench/results/latest.json (git-ignored). */
export async function writeJson(report: Report): Promise<string> {
  const dir = join(REPO_ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const file = join(dir, `${report.machine.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, text);
  await writeFile(join(dir, 'latest.json'), text);
  return file;
}

/** bench/RESULTS.md: the latest whole-suite run, committed, with the machine it ran on. */
export async function writeResultsMarkdown(report: Report): Promise<string> {
  const { machine } = report;
  const notes = report.rows.flatMap((row) => row.notes.map((note) => `- ${row.id} ${row.mode}: ${note.replace(/\|/g, '\\|')}`));
  const misses = report.rows
    .filter((row) => row.status === 'measured' && row.pass === false)
    .map((row) => {
      const explained = missExplanation(row.id, row.mode);
      const by = row.ratio ? ` (ratio ${formatNumber(row.ratio.value)}, target ${row.target})` : '';
      if (!explained) return `- **${row.id} ${row.mode}** misses${by}: not explained yet; profile it (\`npm run bench -- ${row.id} --cpu-prof\`).`;
      return [
        `- **${row.id} ${row.mode}** misses${by}.`,
        `  - Tried: ${explained.tried}.`,
        `  - Why the rest is out of reach on this design: ${explained.why}.`,
        `  - Design change that would reach it: ${explained.design}.`,
        `  - Profiles and measurements: [${row.id} in docs/performance](${explained.profile}).`,
      ].join('\n');
    });
  const text = `# Benchmark results (latest run)

Written by \`${report.command}\`; figures are ratios against baselines measured in the same run
on the same machine (see [the bench's docs](../docs/performance/index.md#reading-the-ratios) for how to read them). Absolute numbers vary
from machine to machine and from minute to minute on a shared one.

| machine | |
|---|---|
| date | ${machine.date} |
| nproc | ${machine.nproc} (${machine.cpu}) |
| memory | ${machine.memoryGiB} GiB |
| node | ${machine.node} |
| kernel | ${machine.kernel} |
| PostgreSQL | ${machine.postgres} |
| product revision | ${machine.revision} |
| load average at start | ${machine.loadAverageAtStart} |${machine.memoryTouch ? `\n| memory written, ms per MiB | ${machine.memoryTouch.freshMsPerMiB} fresh, ${machine.memoryTouch.reusedMsPerMiB} reused |` : ''}
| options | ${Object.entries(report.options)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(', ')} |
| elapsed | ${report.elapsedS} s |

${markdownTable(report.rows)}
${misses.length > 0 ? `\n## Targets missed, and why\n\n${misses.join('\n')}\n` : ''}
## Notes

${notes.join('\n')}
`;
  const file = join(REPO_ROOT, 'bench', 'RESULTS.md');
  await writeFile(file, text);
  return file;
}
