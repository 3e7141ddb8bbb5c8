import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from './s3-blob-store';

describe('S3BlobStore.list', () => {
  afterEach(() => jest.restoreAllMocks());

  it('follows continuation tokens until the listing is no longer truncated', async () => {
    const pages = [
      { Contents: [{ Key: 'p/1', Size: 1, LastModified: new Date(1) }, { Key: 'p/2', Size: 2, LastModified: new Date(2) }], IsTruncated: true, NextContinuationToken: 'after-2' },
      { Contents: [{ Key: 'p/3', Size: 3, LastModified: new Date(3) }], IsTruncated: true, NextContinuationToken: 'after-3' },
      { Contents: [], IsTruncated: false },
    ];
    const sent: Array<Record<string, unknown>> = [];
    const send = (command: unknown): Promise<unknown> => {
      expect(command).toBeInstanceOf(ListObjectsV2Command);
      sent.push({ ...(command as ListObjectsV2Command).input });
      return Promise.resolve(pages[sent.length - 1]);
    };
    jest.spyOn(S3Client.prototype, 'send').mockImplementation(send as never);
    const store = new S3BlobStore({ bucket: 'files', region: 'us-east-1', listPageSize: 2 });
    const listed = [];
    for await (const info of store.list('p/')) listed.push(info);
    expect(listed).toEqual([
      { key: 'p/1', size: 1, modifiedAt: new Date(1) },
      { key: 'p/2', size: 2, modifiedAt: new Date(2) },
      { key: 'p/3', size: 3, modifiedAt: new Date(3) },
    ]);
    expect(sent).toEqual([
      { Bucket: 'files', Prefix: 'p/', ContinuationToken: undefined, MaxKeys: 2 },
      { Bucket: 'files', Prefix: 'p/', ContinuationToken: 'after-2', MaxKeys: 2 },
      { Bucket: 'files', Prefix: 'p/', ContinuationToken: 'after-3', MaxKeys: 2 },
    ]);
    store.close();
  });
});
