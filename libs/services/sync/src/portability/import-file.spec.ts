import { zipSync } from 'fflate';
import { DomainError } from '@doable/shared-errors';
import { ACCOUNT_JSON_ENTRY, zipArchive } from './account-archive';
import { MAX_ARCHIVE_ENTRIES, MAX_EXPANDED_BYTES, unzipBounded } from './import-file';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('not refused');
}

describe('unzipBounded', () => {
  it('reads a Todoist backup (sizes in the headers) and a Doable backup (streamed, data descriptors) alike', async () => {
    const todoist = unzipBounded(zipSync({ 'Inbox.csv': new TextEncoder().encode('TYPE,CONTENT\ntask,Milk\n'), 'stored.txt': [new TextEncoder().encode('plain'), { level: 0 }] }));
    expect(Object.keys(todoist).sort()).toEqual(['Inbox.csv', 'stored.txt']);
    expect(Buffer.from(todoist['Inbox.csv']).toString()).toBe('TYPE,CONTENT\ntask,Milk\n');
    const content = 'task,The same task again\n'.repeat(20_000);
    const doable = unzipBounded(await bytesOf(zipArchive([{ name: 'big.csv', content }, { name: ACCOUNT_JSON_ENTRY, content: '{"items":[]}' }])));
    expect(Buffer.from(doable['big.csv']).toString()).toBe(content);
    expect(Buffer.from(doable[ACCOUNT_JSON_ENTRY]).toString()).toBe('{"items":[]}');
  });

  it('refuses a truncated archive with a coded 400, wherever it is cut', () => {
    const whole = zipSync({ 'a.csv': new TextEncoder().encode('TYPE,CONTENT\n'.repeat(5_000)), 'b.csv': new TextEncoder().encode('x') });
    for (const cut of [10, 40, Math.floor(whole.length / 3), whole.length - 200]) {
      expect({ cut, code: refusal(() => unzipBounded(whole.subarray(0, cut))).code }).toEqual({ cut, code: 'INVALID_ARGUMENT_VALUE' });
    }
  });

  it('refuses a ZIP bomb with a coded 413 once it passes the bound, before inflating it whole', async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = zipSync({ 'a.csv': zeros, 'b.csv': zeros, 'c.csv': zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const limits = { maxExpandedBytes: 4 * 1024 * 1024, maxEntries: 10 };
    expect(refusal(() => unzipBounded(bomb, limits)).code).toBe('PAYLOAD_TOO_LARGE');
    // A streamed archive (no sizes in its headers, as a lying one) is refused by counting what it inflates.
    const streamed = await bytesOf(zipArchive([{ name: 'a.csv', content: 'a'.repeat(8 * 1024 * 1024) }]));
    expect(refusal(() => unzipBounded(streamed, limits)).code).toBe('PAYLOAD_TOO_LARGE');
    // Under the real bound the same archive is fine: the refusal is the bound, not the archive.
    expect(Object.keys(unzipBounded(bomb))).toHaveLength(3);
    expect(MAX_EXPANDED_BYTES).toBe(256 * 1024 * 1024);
  });

  it('refuses an archive of more entries than its bound', () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`f${index}.csv`, new Uint8Array(0)]));
    expect(refusal(() => unzipBounded(zipSync(many), { maxExpandedBytes: 1024, maxEntries: 10 })).code).toBe('PAYLOAD_TOO_LARGE');
    expect(MAX_ARCHIVE_ENTRIES).toBe(10_000);
  });
});
