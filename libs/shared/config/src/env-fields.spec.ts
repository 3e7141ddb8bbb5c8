import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, env, natsEnvSchema } from './env-fields';

describe('env fields', () => {
  describe('port', () => {
    const schema = env.port(3000);

    it.each([
      [undefined, 3000],
      ['8080', 8080],
      ['0', 0],
      ['65535', 65535],
    ])('reads %j as %d', (raw, port) => {
      expect(schema.parse(raw)).toBe(port);
    });

    it.each(['65536', '-1', '80.5', 'http', '1e6'])('rejects %j', (raw) => {
      expect(schema.safeParse(raw).success).toBe(false);
    });
  });

  describe('positiveInt', () => {
    const schema = env.positiveInt(10);

    it.each([
      [undefined, 10],
      ['1', 1],
      ['250', 250],
    ])('reads %j as %d', (raw, value) => {
      expect(schema.parse(raw)).toBe(value);
    });

    it.each(['0', '-3', '2.5', 'ten', ''])('rejects %j', (raw) => {
      expect(schema.safeParse(raw).success).toBe(false);
    });
  });

  describe('bool', () => {
    it.each([
      ['true', true],
      ['1', true],
      ['false', false],
      ['0', false],
    ])('reads %j as %s', (raw, value) => {
      expect(env.bool(!value).parse(raw)).toBe(value);
    });

    it.each([true, false])('defaults to %s', (fallback) => {
      expect(env.bool(fallback).parse(undefined)).toBe(fallback);
    });

    it.each(['yes', 'TRUE', '', 'on'])('rejects %j', (raw) => {
      expect(env.bool(false).safeParse(raw).success).toBe(false);
    });
  });

  describe('url', () => {
    const schema = env.url(['postgres', 'postgresql']);

    it.each(['postgres://doable:secret@db:5432/doable', 'postgresql://localhost/doable'])('accepts %s', (raw) => {
      expect(schema.parse(raw)).toBe(raw);
    });

    it.each(['mysql://db/doable', 'http://db', 'not a url', '', 'db:5432'])('rejects %j naming the protocols', (raw) => {
      const parsed = schema.safeParse(raw);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].message).toBe('must be a URL (postgres, postgresql)');
    });
  });

  describe('logLevel', () => {
    it('defaults to info', () => {
      expect(env.logLevel().parse(undefined)).toBe('info');
    });

    it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts %s', (level) => {
      expect(env.logLevel().parse(level)).toBe(level);
    });

    it.each(['verbose', 'INFO'])('rejects %s', (level) => {
      expect(env.logLevel().safeParse(level).success).toBe(false);
    });
  });

  describe('schemas', () => {
    it('gives every base field a default', () => {
      expect(baseEnvSchema.parse({})).toEqual({ NODE_ENV: 'development', LOG_LEVEL: 'info', REQUEST_TIMEOUT_MS: 15_000 });
    });

    it('rejects an unknown NODE_ENV', () => {
      expect(baseEnvSchema.safeParse({ NODE_ENV: 'staging' }).success).toBe(false);
    });

    it.each(['nats://nats:4222', 'tls://nats:4222', 'ws://nats:8080', 'wss://nats:443'])('accepts NATS_URL %s', (url) => {
      expect(natsEnvSchema.parse({ NATS_URL: url })).toEqual({ NATS_URL: url });
    });

    it('accepts a NATS cluster as a comma list of its servers', () => {
      const url = 'nats://n1:4222,nats://n2:4222, tls://n3:4222';
      expect(natsEnvSchema.parse({ NATS_URL: url })).toEqual({ NATS_URL: url });
    });

    it.each(['nats://n1:4222,n2:4222', 'nats://n1:4222,', 'http://n1:4222,nats://n2:4222'])('rejects NATS_URL %s (each server needs its scheme)', (url) => {
      expect(natsEnvSchema.safeParse({ NATS_URL: url }).success).toBe(false);
    });

    it('requires NATS_URL', () => {
      expect(natsEnvSchema.safeParse({}).success).toBe(false);
    });

    it('requires DATABASE_URL and defaults the pool size', () => {
      expect(databaseEnvSchema.safeParse({ DATABASE_POOL_SIZE: '5' }).success).toBe(false);
      expect(databaseEnvSchema.parse({ DATABASE_URL: 'postgres://db/doable' })).toEqual({ DATABASE_URL: 'postgres://db/doable', DATABASE_POOL_SIZE: 10 });
    });

    it('composes into one service schema', () => {
      const schema = z.object({ ...baseEnvSchema.shape, PORT: env.port(8080), SIGNUP_ENABLED: env.bool(false) });
      expect(schema.parse({ PORT: '9000', SIGNUP_ENABLED: '1', LOG_LEVEL: 'debug' })).toEqual({
        NODE_ENV: 'development',
        LOG_LEVEL: 'debug',
        REQUEST_TIMEOUT_MS: 15_000,
        PORT: 9000,
        SIGNUP_ENABLED: true,
      });
    });
  });
});
