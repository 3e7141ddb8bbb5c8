import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, natsEnvSchema } from './env-fields';
import { ConfigError, loadConfig, redactConfig } from './load-config';

const clusterSchema = z.object({ ...baseEnvSchema.shape, ...natsEnvSchema.shape, ...databaseEnvSchema.shape });

function configError(env: NodeJS.ProcessEnv, schema: z.ZodType = clusterSchema): ConfigError {
  try {
    loadConfig('sync', schema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('returns the typed configuration with defaults and coercions applied', () => {
    const config = loadConfig('sync', clusterSchema, {
      NATS_URL: 'nats://nats:4222',
      DATABASE_URL: 'postgres://doable:secret@db:5432/doable',
      REQUEST_TIMEOUT_MS: '2500',
    });
    expect(config).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      REQUEST_TIMEOUT_MS: 2500,
      NATS_URL: 'nats://nats:4222',
      DATABASE_URL: 'postgres://doable:secret@db:5432/doable',
      DATABASE_POOL_SIZE: 10,
    });
  });

  it('ignores variables the schema does not name', () => {
    const config = loadConfig('gateway', baseEnvSchema, { PATH: '/usr/bin', HOME: '/root' });
    expect(Object.keys(config).sort()).toEqual(['LOG_LEVEL', 'NODE_ENV', 'REQUEST_TIMEOUT_MS']);
  });

  it('lists every problem at once in a ConfigError', () => {
    const err = configError({ LOG_LEVEL: 'loud', REQUEST_TIMEOUT_MS: '-5', DATABASE_URL: 'mysql://db/doable' });
    expect(err.name).toBe('ConfigError');
    expect(err.service).toBe('sync');
    expect(err.problems).toHaveLength(4);
    expect(err.problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'NATS_URL', 'REQUEST_TIMEOUT_MS']);
    expect(err.problems.find((problem) => problem.startsWith('DATABASE_URL'))).toBe('DATABASE_URL: must be a URL (postgres, postgresql)');
    for (const problem of err.problems) expect(err.message).toContain(problem);
    expect(err.message.startsWith('invalid configuration for sync:')).toBe(true);
  });

  it('is an Error', () => {
    expect(configError({})).toBeInstanceOf(Error);
  });

  it('names the nested path of a problem', () => {
    const schema = z.object({ limits: z.object({ max: z.coerce.number().int() }) });
    const err = configError({ limits: { max: 'many' } } as unknown as NodeJS.ProcessEnv, schema);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0].startsWith('limits.max: ')).toBe(true);
  });

  it('names a problem with the whole input as (root)', () => {
    const schema = z.object({ A: z.string().optional(), B: z.string().optional() }).refine((env) => env.A !== undefined || env.B !== undefined, 'A or B is required');
    expect(configError({}, schema).problems).toEqual(['(root): A or B is required']);
  });
});

describe('redactConfig', () => {
  it.each(['JWT_SECRET', 'GITHUB_TOKEN', 'PASSWORD', 'DB_PASSWORD', 'API_KEY', 'AWS_CREDENTIALS', 'oauthClientSecret', 'refresh_token'])('masks %s', (key) => {
    expect(redactConfig({ [key]: 'hunter2', LOG_LEVEL: 'info' })).toEqual({ [key]: '***', LOG_LEVEL: 'info' });
  });

  it('masks secrets whatever their type', () => {
    expect(redactConfig({ SESSION_SECRET: 12345, TOKEN_PEPPER: null })).toEqual({ SESSION_SECRET: '***', TOKEN_PEPPER: '***' });
  });

  it('leaves an unset secret unset, so its absence stays visible', () => {
    expect(redactConfig({ JWT_SECRET: undefined })).toEqual({ JWT_SECRET: undefined });
  });

  it.each([
    ['postgres://doable:hunter2@db:5432/doable', 'postgres://doable:***@db:5432/doable'],
    ['postgresql://doable:hunter2@db/doable?sslmode=require', 'postgresql://doable:***@db/doable?sslmode=require'],
    ['POSTGRES://doable:hunter2@db/doable', 'POSTGRES://doable:***@db/doable'],
    ['nats://user:s3cr%40t@nats:4222', 'nats://user:***@nats:4222'],
    ['redis://:hunter2@cache:6379', 'redis://:***@cache:6379'],
    // A NATS cluster's servers, each with its credentials: every one masked, not only the first.
    ['nats://a:one@n1:4222,nats://b:two@n2:4222, tls://c:three@n3:4222', 'nats://a:***@n1:4222,nats://b:***@n2:4222, tls://c:***@n3:4222'],
  ])('masks the password inside the URL %s', (url, masked) => {
    expect(redactConfig({ DATABASE_URL: url })).toEqual({ DATABASE_URL: masked });
  });

  it.each([
    'postgres://db:5432/doable',
    'postgres://doable@db:5432/doable',
    'nats://nats:4222',
    'https://example.com/a:b@c',
  ])('leaves the URL %s without a password unchanged', (url) => {
    expect(redactConfig({ SOME_URL: url })).toEqual({ SOME_URL: url });
  });

  it('leaves other values unchanged', () => {
    const config = { NODE_ENV: 'production', PORT: 8080, ENABLED: true, LIST: ['a'] };
    expect(redactConfig(config)).toEqual(config);
  });

  it('does not change the configuration it is given', () => {
    const config = { JWT_SECRET: 'hunter2', DATABASE_URL: 'postgres://doable:hunter2@db/doable' };
    redactConfig(config);
    expect(config).toEqual({ JWT_SECRET: 'hunter2', DATABASE_URL: 'postgres://doable:hunter2@db/doable' });
  });
});

describe('redactConfig with unusual URLs', () => {
  it.each([
    ['postgres://doable:p@ss@db:5432/doable', 'postgres://doable:***@db:5432/doable'],
    ['mongodb+srv://doable:hunter2@cluster/doable', 'mongodb+srv://doable:***@cluster/doable'],
    ['nats://nats:4222', 'nats://nats:4222'],
    ['postgres://user@db/doable', 'postgres://user@db/doable'],
  ])('masks the password of %s', (url, masked) => {
    expect(redactConfig({ SOME_URL: url })).toEqual({ SOME_URL: masked });
  });
});

describe('loadConfig with empty variables', () => {
  it('treats a variable set to the empty string as unset', () => {
    const schema = z.object({ PORT: z.coerce.number().int().min(0).default(3000) });
    expect(loadConfig('svc', schema, { PORT: '' })).toEqual({ PORT: 3000 });
  });
});
