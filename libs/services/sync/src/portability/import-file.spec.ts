import { zipSync } from 'fflate';
import { DomainError } from '@doable/shared-errors';
import { CpuPool } from '@doable/shared-runtime';
import { ACCOUNT_JSON_ENTRY, zipArchive } from './account-archive';
import type { AccountSnapshot } from './account-snapshot';
import { IMPORT_FILE_TASK } from './import-file.task';
import { MAX_ARCHIVE_ENTRIES, MAX_EXPANDED_BYTES, snapshotOfImportFile, unzipBounded } from './import-file';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function refusal(run: () => Promise<unknown>): Promise<DomainError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('not refused');
}

describe('unzipBounded', () => {
  it('reads a Todoist backup (sizes in the headers) and a Doable backup (streamed, data descriptors) alike', async () => {
    const todoist = await unzipBounded(zipSync({ 'Inbox.csv': new TextEncoder().encode('TYPE,CONTENT\ntask,Milk\n'), 'stored.txt': [new TextEncoder().encode('plain'), { level: 0 }] }));
    expect(Object.keys(todoist).sort()).toEqual(['Inbox.csv', 'stored.txt']);
    expect(Buffer.from(todoist['Inbox.csv']).toString()).toBe('TYPE,CONTENT\ntask,Milk\n');
    const content = 'task,The same task again\n'.repeat(20_000);
    const doable = await unzipBounded(await bytesOf(zipArchive([{ name: 'big.csv', content }, { name: ACCOUNT_JSON_ENTRY, content: '{"items":[]}' }])));
    expect(Buffer.from(doable['big.csv']).toString()).toBe(content);
    expect(Buffer.from(doable[ACCOUNT_JSON_ENTRY]).toString()).toBe('{"items":[]}');
  });

  it('refuses a truncated archive with a coded 400, wherever it is cut', async () => {
    const whole = zipSync({ 'a.csv': new TextEncoder().encode('TYPE,CONTENT\n'.repeat(5_000)), 'b.csv': new TextEncoder().encode('x') });
    for (const cut of [10, 40, Math.floor(whole.length / 3), whole.length - 200]) {
      expect({ cut, code: (await refusal(() => unzipBounded(whole.subarray(0, cut)))).code }).toEqual({ cut, code: 'INVALID_ARGUMENT_VALUE' });
    }
  });

  // Sized to prove the bound, not to be slow (#45: 24 MB of inflating went past Jest's 5 s on a
  // loaded machine): a 1,000:1 archive over a 256 KiB bound shows the same as one over 256 MB.
  it('refuses a ZIP bomb with a coded 413 once it passes the bound, before inflating it whole', async () => {
    const zeros = new Uint8Array(1024 * 1024);
    const bomb = zipSync({ 'a.csv': zeros, 'b.csv': zeros, 'c.csv': zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(8 * 1024);
    const limits = { maxExpandedBytes: 256 * 1024, maxEntries: 10 };
    expect((await refusal(() => unzipBounded(bomb, limits))).code).toBe('PAYLOAD_TOO_LARGE');
    // A streamed archive (no sizes in its headers, as a lying one) is refused by counting what it inflates.
    const streamed = await bytesOf(zipArchive([{ name: 'a.csv', content: 'a'.repeat(1024 * 1024) }]));
    expect((await refusal(() => unzipBounded(streamed, limits))).code).toBe('PAYLOAD_TOO_LARGE');
    // Under a bound it fits, the same archives are fine: the refusal is the bound, not the archive.
    expect(Object.keys(await unzipBounded(bomb, { maxExpandedBytes: 4 * 1024 * 1024, maxEntries: 10 }))).toHaveLength(3);
    expect(Object.keys(await unzipBounded(streamed, { maxExpandedBytes: 4 * 1024 * 1024, maxEntries: 10 }))).toHaveLength(1);
    expect(MAX_EXPANDED_BYTES).toBe(256 * 1024 * 1024);
  });

  it('refuses an archive of more entries than its bound', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`f${index}.csv`, new Uint8Array(0)]));
    expect((await refusal(() => unzipBounded(zipSync(many), { maxExpandedBytes: 1024, maxEntries: 10 }))).code).toBe('PAYLOAD_TOO_LARGE');
    expect(MAX_ARCHIVE_ENTRIES).toBe(10_000);
  });
});

describe('snapshotOfImportFile on a Todoist backup past its row bound (#44)', () => {
  // The issue's shape, scaled down to what proves it (the backups' bound is 50,000 rows of a
  // 99 MiB CSV; here 2,000 rows of 4 MiB): a header, then short task rows at deflate level 9,
  // and a malformed last row that a reader parsing the whole file first would stop at.
  const header = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\n';
  const rows = Buffer.from('task,aaaaaaaa,4,1,,,,,,\n'.repeat((4 * 1024 * 1024) / 24));
  const zip = zipSync({ 'Inbox.csv': Buffer.concat([Buffer.from(header), rows, Buffer.from('task,"unclosed\n')]) }, { level: 9 });
  const limits = { maxRows: 2000, maxBytes: 100 * 1024 * 1024 };

  it('refuses at the row past the bound, never reading the rest of the file', async () => {
    const refused = await refusal(() => snapshotOfImportFile(zip, { csvLimits: limits }));
    expect(refused.message).toBe('Invalid template file: more than 2000 rows');
    expect(refused.code).toBe('INVALID_ARGUMENT_VALUE');
  }, 30_000);

  it('lets other work run while it inflates and parses', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await refusal(() => snapshotOfImportFile(zip, { csvLimits: limits }));
    clearInterval(timer);
    // 2,000 rows are ~48 KB: parsed in 4 KB slices, the timer ran between them.
    expect(ticks).toBeGreaterThan(0);
  }, 30_000);
});

describe('an import file read on the CPU pool (import-file.task)', () => {
  const pool = new CpuPool({ size: 1, maxQueue: 4 });
  afterAll(() => pool.close());

  it('reads a full sync JSON, bare or in a Doable backup, on a pool thread; a refusal comes back coded', async () => {
    const account = { projects: [{ id: '1', name: 'Exact' }], items: [{ id: '2', project_id: '1', content: 'From JSON' }] };
    const json = new TextEncoder().encode(JSON.stringify(account));
    expect((await pool.run<AccountSnapshot>(IMPORT_FILE_TASK, json)).tasks.map((task) => task.content)).toEqual(['From JSON']);
    const backup = zipSync({ 'Exact [1].csv': new TextEncoder().encode('TYPE,CONTENT\ntask,From CSV\n'), [ACCOUNT_JSON_ENTRY]: json });
    expect((await pool.run<AccountSnapshot>(IMPORT_FILE_TASK, backup)).tasks.map((task) => task.content)).toEqual(['From JSON']);
    const refused = await refusal(() => pool.run(IMPORT_FILE_TASK, new TextEncoder().encode('{"items": [')));
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'file', explanation: 'neither a ZIP backup nor JSON' } });
  }, 60_000);
});
