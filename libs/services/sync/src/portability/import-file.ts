import { Unzip, UnzipInflate } from 'fflate';
import { DomainError } from '@doable/shared-errors';
import { ACCOUNT_JSON_ENTRY } from './account-archive';
import type { AccountSnapshot } from './account-snapshot';
import { snapshotOfFullSync } from './full-sync-snapshot';
import { snapshotOfBackupCsvs } from './snapshot-csv';

function refused(explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation });
}

/** An archive expands to at most this much (a Todoist backup of a large account is a few MB of CSV). */
export const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
/** And holds at most this many entries. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/** Compressed bytes inflated per step: at deflate's ~1,000:1 at most, one step yields about 16 MB. */
const INFLATE_STEP_BYTES = 16 * 1024;

export interface ArchiveLimits {
  readonly maxExpandedBytes: number;
  readonly maxEntries: number;
}

/** The end of central directory record's signature, found in an archive's last 64 KiB and 22 bytes. */
const END_OF_DIRECTORY = 0x06054b50;

function hasEndOfDirectory(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) if (view.getUint32(at, true) === END_OF_DIRECTORY) return true;
  return false;
}

/**
 * The entries of a ZIP archive, inflated a little at a time and counted as they come: a ZIP
 * bomb (or entries lying about their size) is refused once it passes MAX_EXPANDED_BYTES, never
 * inflated whole; a truncated or damaged archive is refused with a coded 400.
 */
export function unzipBounded(bytes: Uint8Array, limits: ArchiveLimits = { maxExpandedBytes: MAX_EXPANDED_BYTES, maxEntries: MAX_ARCHIVE_ENTRIES }): Record<string, Uint8Array> {
  const expandsTooFar = () => new DomainError('PAYLOAD_TOO_LARGE', `The archive expands beyond ${limits.maxExpandedBytes} bytes or ${limits.maxEntries} entries`, { argument: 'file' });
  if (!hasEndOfDirectory(bytes)) throw refused('a truncated ZIP archive (no end of central directory)');
  const files: Record<string, Uint8Array> = {};
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
    const chunks: Uint8Array[] = [];
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
      chunks.push(chunk);
      if (final) {
        files[file.name] = Buffer.concat(chunks);
        unfinished.delete(file.name);
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && !refusal; offset += INFLATE_STEP_BYTES) {
      unzip.push(bytes.subarray(offset, offset + INFLATE_STEP_BYTES), offset + INFLATE_STEP_BYTES >= bytes.length);
    }
  } catch {
    refusal ??= refused('a damaged ZIP archive');
  }
  if (refusal) throw refusal;
  // An entry that never reached its end: the archive was cut short.
  if (unfinished.size > 0 || entries === 0) throw refused('a truncated ZIP archive');
  return files;
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * What an import file holds, whichever of the three it is: a Doable backup (a ZIP whose
 * `doable-account.json` restores the account exactly), a Todoist backup (a ZIP of project
 * CSVs), or the JSON of a full sync. Anything else is refused with a coded 400.
 */
export function snapshotOfImportFile(bytes: Uint8Array): AccountSnapshot {
  if (isZip(bytes)) {
    const files = unzipBounded(bytes);
    const decoder = new TextDecoder('utf-8');
    const account = files[ACCOUNT_JSON_ENTRY];
    if (account) return snapshotOfFullSync(parseJson(decoder.decode(account)));
    const csvs = Object.entries(files)
      .filter(([name]) => name.toLowerCase().endsWith('.csv') && !name.startsWith('__MACOSX/'))
      .map(([name, content]) => ({ name: name.split('/').pop() ?? name, text: decoder.decode(content) }));
    if (csvs.length === 0) throw refused('a ZIP without project CSVs (not a Todoist backup)');
    return snapshotOfBackupCsvs(csvs);
  }
  return snapshotOfFullSync(parseJson(new TextDecoder('utf-8').decode(bytes)));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw refused('neither a ZIP backup nor JSON');
  }
}
