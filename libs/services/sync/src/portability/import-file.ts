import { unzipSync } from 'fflate';
import { DomainError } from '@doable/shared-errors';
import { ACCOUNT_JSON_ENTRY } from '../backups/backup-archive';
import type { AccountSnapshot } from './account-snapshot';
import { snapshotOfFullSync } from './full-sync-snapshot';
import { snapshotOfBackupCsvs } from './snapshot-csv';

function refused(explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation });
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * What an import file holds, whichever of the three it is: a Doable backup (a ZIP whose
 * `doable-account.json` restores the account exactly), a Todoist backup (a ZIP of project
 * CSVs), or the JSON of a full sync. Anything else is refused with a coded 400.
 */
export function snapshotOfImportFile(bytes: Uint8Array): AccountSnapshot {
  if (isZip(bytes)) {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes);
    } catch {
      throw refused('a damaged ZIP archive');
    }
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
