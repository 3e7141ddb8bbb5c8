import { unzipSync } from 'fflate';
import { ACCOUNT_JSON_ENTRY, projectCsvName, zipArchive } from './account-archive';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('zipArchive', () => {
  it('streams a ZIP whose entries read back as written (names, UTF-8 text)', async () => {
    const entries = [
      { name: 'Inbox [1].csv', content: 'TYPE,CONTENT\ntask,Buy milk 🥛\n' },
      { name: ACCOUNT_JSON_ENTRY, content: JSON.stringify({ items: [{ content: 'Zoë' }] }) },
    ];
    const files = unzipSync(await bytesOf(zipArchive(entries)));
    expect(Object.keys(files).sort()).toEqual(['Inbox [1].csv', ACCOUNT_JSON_ENTRY]);
    expect(new TextDecoder().decode(files['Inbox [1].csv'])).toBe(entries[0].content);
    expect(JSON.parse(new TextDecoder().decode(files[ACCOUNT_JSON_ENTRY]))).toEqual({ items: [{ content: 'Zoë' }] });
  });

  it('compresses: a large repetitive account is far smaller zipped', async () => {
    const content = 'task,The same task again\n'.repeat(50_000);
    const zipped = await bytesOf(zipArchive([{ name: 'big.csv', content }]));
    expect(zipped.length).toBeLessThan(content.length / 20);
  });
});

describe('projectCsvName', () => {
  it('keeps the name, adds the id, and replaces what file systems refuse', () => {
    expect(projectCsvName('Work', '42')).toBe('Work [42].csv');
    expect(projectCsvName('a/b:c*d?', '7')).toBe('a_b_c_d_ [7].csv');
    expect(projectCsvName('   ', '7')).toBe('Project [7].csv');
  });
});
