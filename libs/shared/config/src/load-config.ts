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
  // `PORT=` (set but empty, common in compose files) means "not set": the default applies.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConfigError(service, problems);
}

const SECRET_KEY = /(password|secret|token|key|credential)/i;

/**
 * The password of a URL (`scheme://user:password@host/...`) masked. The user info ends at the
 * last '@' of the authority, as URL parsers read it, so a password containing '@' is masked whole.
 */
function maskUrlPassword(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(value);
  if (!match) return value;
  const [, scheme, authority, rest] = match;
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at < 0 || colon < 0 || colon > at) return value;
  return `${scheme}${authority.slice(0, colon)}:***${authority.slice(at)}${rest}`;
}

/**
 * Each URL of a comma list (NATS_URL naming a cluster's servers) masked on its own. Split only
 * where a scheme follows the comma, so a comma inside one URL keeps it one URL.
 */
function maskUrlPasswords(value: string): string {
  return value
    .split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)/i)
    .map((part) => {
      const url = part.trimStart();
      return part.slice(0, part.length - url.length) + maskUrlPassword(url);
    })
    .join(',');
}

/** The configuration as it may be logged: secrets and URL passwords are masked. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      if (SECRET_KEY.test(key)) return [key, value === undefined ? value : '***'];
      return [key, typeof value === 'string' ? maskUrlPasswords(value) : value];
    }),
  );
}
