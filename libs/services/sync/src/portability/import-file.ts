import { Unzip, UnzipInflate } from 'fflate';
import { DomainError } from '@doable/shared-errors';
import { TodoistCsvReader, yieldToEventLoop } from '../templates/todoist-csv';
import { ACCOUNT_JSON_ENTRY } from './account-archive';
import type { AccountSnapshot } from './account-snapshot';
import { snapshotOfJsonBytes } from './json-snapshot';
import { BACKUP_CSV_LIMITS, snapshotOfBackupTrees } from './snapshot-csv';

function refused(explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation });
}

/** An archive expands to at most this much (a Todoist backup of a large account is a few MB of CSV). */
export const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
/** And holds at most this many entries. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/**
 * Compressed bytes inflated per step: at deflate's ~1,000:1 at most, one step yields about 1 MB,
 * a few milliseconds of inflating before the next check of the bounds.
 */
const INFLATE_STEP_BYTES = 1024;
/**
 * Inflated bytes a reader is handed per turn of the event loop. A reader parses CSV (a few ms
 * per 4 KB on a quiet core, several times that on a loaded one), so the inflated output is
 * handed over in slices this size, never a whole step's megabyte at once.
 */
const READ_SLICE_BYTES = 4 * 1024;
/** The event loop gets a turn after this much compressed input or this much inflated output. */
const YIELD_AFTER_COMPRESSED = 64 * 1024;
const YIELD_AFTER_EXPANDED = 512 * 1024;

export interface ArchiveLimits {
  readonly maxExpandedBytes: number;
  readonly maxEntries: number;
}

/** Who reads one entry's inflated bytes as they come; its refusal stops the inflating there. */
export interface EntryReader {
  write(chunk: Uint8Array): void;
  readonly refusal: DomainError | null;
}

/** The end of central directory record's signature, found in an archive's last 64 KiB and 22 bytes. */
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

function endOfDirectoryAt(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  return -1;
}

/**
 * The entry names the central directory lists, read without inflating anything; null when it
 * cannot tell (ZIP64, or a directory that does not parse: the inflating then decides).
 */
function directoryNames(bytes: Uint8Array, endAt: number): string[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(endAt + 10, true);
  let at = view.getUint32(endAt + 16, true);
  if (count === 0xffff || at === 0xffffffff) return null;
  const decoder = new TextDecoder('utf-8');
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) return null;
    const nameLength = view.getUint16(at + 28, true);
    names.push(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return names;
}

/**
 * Inflates a ZIP archive a little at a time, handing each entry's bytes to the reader
 * `readerFor` gives it (an entry without one is inflated, counted and dropped), and yielding to
 * the event loop between steps so other requests run beside it. Counted as it goes: a ZIP bomb
 * (or entries lying about their size) is refused once it passes `maxExpandedBytes`, never
 * inflated whole; a reader's refusal (a CSV past its row bound) stops the inflating at once; a
 * truncated or damaged archive is refused with a coded 400.
 */
export async function inflateEntries(
  bytes: Uint8Array,
  readerFor: (name: string) => EntryReader | null,
  limits: ArchiveLimits = { maxExpandedBytes: MAX_EXPANDED_BYTES, maxEntries: MAX_ARCHIVE_ENTRIES },
): Promise<void> {
  const expandsTooFar = () => new DomainError('PAYLOAD_TOO_LARGE', `The archive expands beyond ${limits.maxExpandedBytes} bytes or ${limits.maxEntries} entries`, { argument: 'file' });
  if (endOfDirectoryAt(bytes) < 0) throw refused('a truncated ZIP archive (no end of central directory)');
  const unfinished = new Set<string>();
  let entries = 0;
  let expanded = 0;
  let declared = 0;
  let refusal: DomainError | undefined;
  const unzip = new Unzip((file) => {
    if (refusal) return;
    if (++entries > limits.maxEntries) {
      refusal = expandsTooFar();
      return;
    }
    // What the headers declare is checked first: an honest bomb is refused before any inflating
    // (a lying one, or a streamed archive without sizes, is caught by counting below).
    declared += file.originalSize ?? 0;
    if (declared > limits.maxExpandedBytes) {
      refusal = expandsTooFar();
      return;
    }
    if (file.compression !== 0 && file.compression !== 8) {
      refusal = refused(`a ZIP entry compressed with an unsupported method (${file.compression})`);
      return;
    }
    const reader = readerFor(file.name);
    unfinished.add(file.name);
    file.ondata = (err, chunk, final) => {
      if (refusal) return;
      if (err) {
        refusal = refused('a damaged ZIP archive');
        return;
      }
      expanded += chunk.length;
      if (expanded > limits.maxExpandedBytes) {
        refusal = expandsTooFar();
        file.terminate();
        return;
      }
      // Handed to the reader after this step, in slices, with turns of the event loop between.
      if (reader && chunk.length > 0) pending.push({ reader, chunk });
      if (final) unfinished.delete(file.name);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const pending: Array<{ reader: EntryReader; chunk: Uint8Array }> = [];
  let compressedSinceYield = 0;
  let expandedSinceYield = 0;
  const turn = async (): Promise<void> => {
    await yieldToEventLoop();
    compressedSinceYield = 0;
    expandedSinceYield = 0;
  };
  try {
    for (let offset = 0; offset < bytes.length && !refusal; offset += INFLATE_STEP_BYTES) {
      const before = expanded;
      unzip.push(bytes.subarray(offset, offset + INFLATE_STEP_BYTES), offset + INFLATE_STEP_BYTES >= bytes.length);
      compressedSinceYield += INFLATE_STEP_BYTES;
      expandedSinceYield += expanded - before;
      for (const { reader, chunk } of pending.splice(0)) {
        for (let at = 0; at < chunk.length && !refusal; at += READ_SLICE_BYTES) {
          reader.write(chunk.subarray(at, at + READ_SLICE_BYTES));
          refusal ??= reader.refusal ?? undefined;
          await turn();
        }
      }
      if (compressedSinceYield >= YIELD_AFTER_COMPRESSED || expandedSinceYield >= YIELD_AFTER_EXPANDED) await turn();
    }
  } catch {
    refusal ??= refused('a damaged ZIP archive');
  }
  if (refusal) throw refusal;
  // An entry that never reached its end: the archive was cut short.
  if (unfinished.size > 0 || entries === 0) throw refused('a truncated ZIP archive');
}

/** An entry's bytes kept whole (the account JSON of a Doable backup, bounded by the archive's bound). */
class EntryBytes implements EntryReader {
  readonly refusal = null;
  private readonly chunks: Uint8Array[] = [];
  write(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Every entry of an archive, whole: for small archives and tests. */
export async function unzipBounded(bytes: Uint8Array, limits?: ArchiveLimits): Promise<Record<string, Uint8Array>> {
  const entries = new Map<string, EntryBytes>();
  await inflateEntries(
    bytes,
    (name) => {
      const entry = new EntryBytes();
      entries.set(name, entry);
      return entry;
    },
    limits,
  );
  return Object.fromEntries([...entries].map(([name, entry]) => [name, entry.bytes]));
}

export interface ImportFileOptions {
  /** A Todoist backup's bounds per CSV (tests pass smaller ones). */
  readonly csvLimits?: { readonly maxRows: number; readonly maxBytes: number };
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isProjectCsv = (name: string) => name.toLowerCase().endsWith('.csv') && !name.startsWith('__MACOSX/');

/**
 * What an import file holds, whichever of the three it is: a Doable backup (a ZIP whose
 * `doable-account.json` restores the account exactly), a Todoist backup (a ZIP of project
 * CSVs), or the JSON of a full sync. Anything else is refused with a coded 400.
 *
 * A Todoist backup's CSVs are parsed as they inflate, each through the streaming CSV reader
 * with its row bound, so a CSV of millions of rows is refused at the row past the bound. A
 * Doable backup's CSVs are not parsed at all (its central directory names the account JSON).
 * The service runs this on its CPU pool (import-file.task.ts), so none of it holds the event loop.
 */
export async function snapshotOfImportFile(bytes: Uint8Array, options: ImportFileOptions = {}): Promise<AccountSnapshot> {
  const csvLimits = options.csvLimits ?? BACKUP_CSV_LIMITS;
  if (!isZip(bytes)) return snapshotOfJsonBytes(bytes);
  const endAt = endOfDirectoryAt(bytes);
  const restoresExactly = endAt >= 0 && (directoryNames(bytes, endAt)?.includes(ACCOUNT_JSON_ENTRY) ?? false);
  const account = new EntryBytes();
  const csvs: Array<{ name: string; reader: TodoistCsvReader }> = [];
  try {
    await inflateEntries(bytes, (name) => {
      if (name === ACCOUNT_JSON_ENTRY) return account;
      if (restoresExactly || !isProjectCsv(name)) return null;
      const reader = new TodoistCsvReader(csvLimits);
      csvs.push({ name: name.split('/').pop() ?? name, reader });
      return reader;
    });
  } catch (err) {
    for (const csv of csvs) csv.reader.destroy();
    throw err;
  }
  const json = account.bytes;
  if (json.length > 0) {
    for (const csv of csvs) csv.reader.destroy();
    return snapshotOfJsonBytes(json);
  }
  if (csvs.length === 0) throw refused('a ZIP without project CSVs (not a Todoist backup)');
  return snapshotOfBackupTrees(await Promise.all(csvs.map(async (csv) => ({ name: csv.name, tree: await csv.reader.end() }))));
}
