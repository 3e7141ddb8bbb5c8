import type { AccountSnapshot } from './account-snapshot';
import { snapshotOfImportFile } from './import-file';

/** This module, as a CPU pool task (the runner adds `.js` from dist/ or `.ts` from the sources). */
export const IMPORT_FILE_TASK = __filename.replace(/\.(js|ts)$/, '');

/**
 * An import file into a snapshot, on a pool thread: the upload's bytes in (at most 100 MB, a
 * ZIP inflated and its CSVs parsed as streams with their bounds, or a JSON), a snapshot of at
 * most MAX_IMPORTED_OBJECTS out. Nothing of it runs on the event loop the other requests share.
 */
export function run(bytes: Uint8Array): Promise<AccountSnapshot> {
  return snapshotOfImportFile(bytes);
}
