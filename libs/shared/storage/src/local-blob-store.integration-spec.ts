import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describeBlobStore } from './blob-store.contract';
import { LocalBlobStore } from './local-blob-store';

describeBlobStore('local folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'doable-blobs-'));
  return { store: new LocalBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

describe('LocalBlobStore', () => {
  it('leaves no partial file in the folder after a refused put', async () => {
    const root = await mkdtemp(join(tmpdir(), 'doable-blobs-'));
    try {
      const store = new LocalBlobStore(root);
      await expect(store.put('files/x', Readable.from([Buffer.alloc(10)]), { maxBytes: 5 })).rejects.toThrow('blob larger than 5 bytes');
      expect(await readdir(join(root, 'files'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
