import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';

export interface ArchiveEntry {
  readonly name: string;
  readonly content: string;
}

/** The file a Doable backup carries beside the CSVs: the account's full sync, for an exact restore. */
export const ACCOUNT_JSON_ENTRY = 'doable-account.json';

/**
 * A ZIP of text files, produced as a stream (fflate's streaming Zip): the archive is written to
 * the blob store as it is compressed, never held whole beside its inputs.
 */
export function zipArchive(entries: Iterable<ArchiveEntry>): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      out.destroy(err);
      return;
    }
    out.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (final) out.end();
  });
  // Deferred, so the caller can attach the stream to its consumer before the first chunk.
  setImmediate(() => {
    try {
      for (const entry of entries) {
        const file = new ZipDeflate(entry.name, { level: 6 });
        zip.add(file);
        file.push(new TextEncoder().encode(entry.content), true);
      }
      zip.end();
    } catch (err) {
      out.destroy(err as Error);
    }
  });
  return out;
}

/**
 * A file name for a project's CSV as Todoist's backups name them (the project's name, then its
 * id in brackets, so two projects of one name do not collide), without characters a file
 * system or an unzip tool trips on.
 */
export function projectCsvName(name: string, id: string): string {
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim().slice(0, 100) || 'Project';
  return `${safe} [${id}].csv`;
}
