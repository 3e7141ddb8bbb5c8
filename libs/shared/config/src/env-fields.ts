import { z } from 'zod';

function isUrlOf(protocols: readonly string[], value: string): boolean {
  try {
    return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
  } catch {
    return false;
  }
}

/** Reusable environment fields, so every service spells and checks them the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (protocols: string[]) => z.string().refine((value) => isUrlOf(protocols, value), `must be a URL (${protocols.join(', ')})`),
  /**
   * One URL, or several separated by commas (the servers of a NATS cluster): a client connects to
   * any of them and moves to another when its server goes away. Kept as the text given; split
   * where a connection is made (natsServers in @doable/shared-transport).
   */
  urlList: (protocols: string[]) =>
    z.string().refine(
      (value) => value.split(',').every((url) => isUrlOf(protocols, url.trim())),
      `must be a URL (${protocols.join(', ')}), or several separated by commas`,
    ),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PUBLIC_URL: where users reach the product, without a trailing slash (links, `url` fields, mails). */
  publicUrl: () =>
    z
      .string()
      .url()
      .default('http://localhost:8080')
      .transform((url) => url.replace(/\/+$/, '')),
};

/** Fields every service reads. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel(),
  /** How long a request to another service may take before it is answered 503. */
  REQUEST_TIMEOUT_MS: env.positiveInt(15_000),
});

/** Cluster mode: the message broker, and (for services that own data) the database. */
export const natsEnvSchema = z.object({ NATS_URL: env.urlList(['nats', 'tls', 'ws', 'wss']) });
export const databaseEnvSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  DATABASE_POOL_SIZE: env.positiveInt(10),
});
