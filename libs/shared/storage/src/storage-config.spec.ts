import { ConfigError, loadConfig, redactConfig } from '@doable/shared-config';
import { defaultStorageBucket, resolveStorageConfig, storageEnvSchema } from './storage-config';

const load = (env: NodeJS.ProcessEnv) => loadConfig('test', storageEnvSchema, env);
const embedded = { mode: 'embedded', dir: '/data/files', subjectPrefix: 'doable.' } as const;
const cluster = { mode: 'cluster', dir: 'data/files', subjectPrefix: 'doable.' } as const;

describe('storage configuration', () => {
  it('defaults to a folder in embedded mode and to the Object Store in a cluster', () => {
    expect(resolveStorageConfig('test', load({}), embedded)).toEqual({ driver: 'local', dir: '/data/files' });
    expect(resolveStorageConfig('test', load({}), cluster)).toEqual({ driver: 'nats', bucket: 'doable-files', replicas: 1 });
    expect(resolveStorageConfig('test', load({ STORAGE_DIR: '/srv/files', STORAGE_DRIVER: 'local' }), cluster)).toEqual({ driver: 'local', dir: '/srv/files' });
  });

  it('names the default bucket after the subject prefix, so deployments sharing a NATS keep files apart', () => {
    expect(defaultStorageBucket('doable.')).toBe('doable-files');
    expect(defaultStorageBucket('t-e2e-1a2b3c4d.')).toBe('t-e2e-1a2b3c4d-files');
    expect(defaultStorageBucket('acme.prod.')).toBe('acme-prod-files');
    expect(resolveStorageConfig('test', load({ STORAGE_BUCKET: 'files', STORAGE_REPLICAS: '3' }), cluster)).toEqual({ driver: 'nats', bucket: 'files', replicas: 3 });
  });

  it("keeps as many copies of the files as of the deployment's other streams (NATS_REPLICAS) unless told otherwise", () => {
    expect(resolveStorageConfig('test', load({}), { ...cluster, replicas: 3 })).toEqual({ driver: 'nats', bucket: 'doable-files', replicas: 3 });
    expect(resolveStorageConfig('test', load({ STORAGE_REPLICAS: '1' }), { ...cluster, replicas: 3 })).toEqual({ driver: 'nats', bucket: 'doable-files', replicas: 1 });
  });

  it('reads S3 settings, with the SDK finding credentials itself when none are given', () => {
    const s3 = load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'acme-files', S3_ENDPOINT: 'https://minio.internal:9000', S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'shh' });
    expect(resolveStorageConfig('test', s3, cluster)).toEqual({
      driver: 's3',
      bucket: 'acme-files',
      region: 'us-east-1',
      endpoint: 'https://minio.internal:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'shh' },
    });
    expect(resolveStorageConfig('test', load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'acme-files', S3_REGION: 'eu-west-1' }), embedded)).toEqual({ driver: 's3', bucket: 'acme-files', region: 'eu-west-1', forcePathStyle: false });
  });

  it('never logs the S3 credentials', () => {
    const redacted = redactConfig(load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b-b-b', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'shh' }));
    expect(redacted).toMatchObject({ S3_ACCESS_KEY_ID: '***', S3_SECRET_ACCESS_KEY: '***', S3_BUCKET: 'b-b-b' });
  });

  it('fails at start on settings that cannot work', () => {
    expect(() => load({ STORAGE_DRIVER: 'disk' })).toThrow(ConfigError);
    expect(() => load({ STORAGE_BUCKET: 'has.dots' })).toThrow(ConfigError);
    expect(() => load({ S3_ENDPOINT: 'minio:9000' })).toThrow(ConfigError);
    expect(() => resolveStorageConfig('test', load({ STORAGE_DRIVER: 's3' }), cluster)).toThrow('S3_BUCKET: required when STORAGE_DRIVER is s3');
    expect(() => resolveStorageConfig('test', load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'AKIA' }), cluster)).toThrow('set both, or neither');
    expect(() => resolveStorageConfig('test', load({ STORAGE_DRIVER: 'nats' }), embedded)).toThrow('nats needs cluster mode');
  });
});
