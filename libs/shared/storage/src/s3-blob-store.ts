import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, type Readable } from 'node:stream';
import { type BlobInfo, type BlobPutOptions, type BlobRead, type BlobStore, checkBlobKey, checkBlobPrefix } from './blob-store';
import { byteLimit } from './local-blob-store';

export interface S3BlobStoreOptions {
  readonly bucket: string;
  /** An S3-compatible endpoint (MinIO, R2, Ceph…); absent for AWS itself. */
  readonly endpoint?: string;
  readonly region: string;
  /** Absent: the SDK's default chain (environment, instance or pod role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`: what most S3-compatible servers need. */
  readonly forcePathStyle?: boolean;
  /** Keys per ListObjectsV2 page (S3's maximum by default; small in tests, to walk several pages). */
  readonly listPageSize?: number;
}

/** The smallest part S3 accepts; with one part in flight an upload holds ~5 MiB, whatever its size. */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * An S3-compatible bucket: what platform teams usually hand a service for files. The bucket is
 * provisioned by them (the driver never creates one). A put is a streaming multipart upload,
 * so a file is never whole in memory, and S3 makes the object appear only when the upload
 * completes: a failed or refused put leaves the key as it was (the upload is aborted, its
 * parts dropped).
 */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      // Checksums only where S3 requires them: recent SDKs add CRC32 trailers by default,
      // which several S3-compatible servers do not understand.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get bucket(): string {
    return this.options.bucket;
  }

  async put(key: string, source: Readable, options: BlobPutOptions = {}): Promise<BlobInfo> {
    checkBlobKey(key);
    let size = 0;
    let failure: Error | undefined;
    const body = pipeline(source, byteLimit(options.maxBytes, (n) => (size = n)), (err) => {
      if (err) failure = err;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: body, ...(options.contentType ? { ContentType: options.contentType } : {}) },
      partSize: PART_SIZE,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      source.destroy();
      // The upload reports the body's failure in its own words; the caller needs the cause.
      throw failure ?? err;
    }
    if (failure) throw failure;
    return { key, size, modifiedAt: new Date(), ...(options.contentType ? { contentType: options.contentType } : {}) };
  }

  async get(key: string): Promise<BlobRead | null> {
    checkBlobKey(key);
    try {
      const found = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return {
        key,
        size: found.ContentLength ?? 0,
        modifiedAt: found.LastModified ?? new Date(0),
        ...(found.ContentType ? { contentType: found.ContentType } : {}),
        stream: found.Body as Readable,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    checkBlobKey(key);
    try {
      const found = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { key, size: found.ContentLength ?? 0, modifiedAt: found.LastModified ?? new Date(0), ...(found.ContentType ? { contentType: found.ContentType } : {}) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    checkBlobKey(key);
    // S3 answers a delete of a missing key with success: idempotent as the interface wants.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    checkBlobPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: this.options.listPageSize ?? 1000 }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's sockets (service shutdown). */
  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);
}
