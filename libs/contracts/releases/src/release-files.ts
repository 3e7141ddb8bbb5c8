import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractRecord } from './contract-snapshot';

/**
 * A release's record, committed as `contracts/releases/<version>.json` when the release is made
 * (`npm run contracts:snapshot`): what the next releases must keep working for it. Not a build
 * output: it is never regenerated for a release already made.
 */
export interface ReleaseRecord {
  readonly release: string;
  readonly contracts: ContractRecord;
  /** Each data-owning schema's migrations (class names, in order) the release shipped with. */
  readonly migrations: Readonly<Record<string, readonly string[]>>;
  /**
   * The tables and columns those migrations made (schema -> table -> column -> shape): what the
   * release's queries name, which later migrations must keep (libs/system schema-shape.ts).
   */
  readonly schemas: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, { readonly type: string; readonly nullable: boolean; readonly hasDefault: boolean }>>>>>>;
}

const SEMVER = /^([0-9]+)\.([0-9]+)\.([0-9]+)$/;

export function parseVersion(version: string): [number, number, number] {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`"${version}" is not a release version (major.minor.patch)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** A release's record file (`1.2.0.json`); `commits.json` beside them names each release's commit. */
const RECORD_FILE = /^[0-9]+\.[0-9]+\.[0-9]+\.json$/;

/** Every committed release record in `dir`, oldest first. */
export function readReleaseRecords(dir: string): ReleaseRecord[] {
  return readdirSync(dir)
    .filter((file) => RECORD_FILE.test(file))
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ReleaseRecord)
    .sort((a, b) => compareVersions(a.release, b.release));
}

/**
 * The releases `version` must keep working beside: every earlier release of its major (a major
 * is where a contract step may drop what the previous major's last release no longer used).
 * The record of `version` itself counts too: changes after a release are checked against it
 * until the next release is made.
 */
export function releasesToKeep(records: readonly ReleaseRecord[], version: string): ReleaseRecord[] {
  const [major] = parseVersion(version);
  return records.filter((record) => parseVersion(record.release)[0] === major && compareVersions(record.release, version) <= 0);
}
