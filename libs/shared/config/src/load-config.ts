import { type z } from 'zod';

/** Thrown at start-up when the environment is wrong; lists every problem at once. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`invalid configuration for ${service}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against a service's schema and returns the typed result.
 * Fails fast: a service never starts half-configured.
 */
export function loadConfig<S extends z.ZodType>(service: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConfigError(service, problems);
}

const SECRET_KEY = /(password|secret|token|key|credential)/i;

/** The configuration as it may be logged: secrets and URL passwords are masked. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (SECRET_KEY.test(key)) return [key, value === undefined ? value : '***'];
      if (typeof value === 'string' && /^[a-z]+:\/\/[^/]*:[^@/]*@/i.test(value)) {
        return [key, value.replace(/\/\/([^:/]*):[^@/]*@/, '//$1:***@')];
      }
      return [key, value];
    }),
  );
}
