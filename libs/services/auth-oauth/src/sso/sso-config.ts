import { inspect } from 'node:util';
import { z } from 'zod';

/**
 * A value that must never reach a log: JSON, `util.inspect` and string conversion all show
 * `[redacted]`; only `reveal()` gives it. The configuration is logged at start-up (redacted by
 * top-level key names only), so the client secret inside the providers' list is wrapped.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return '[redacted]';
  }
}

/** One OpenID Connect provider the operator configured (OIDC_PROVIDERS). */
export interface SsoProvider {
  /** In URLs and the database: lower-case letters, digits and `-`. */
  readonly id: string;
  /** What the log-in page's button says: "Sign in with {name}". */
  readonly name: string;
  /** Discovery is `{issuer}/.well-known/openid-configuration`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** Lower-case email domains whose people may sign in; empty: any domain. */
  readonly allowedDomains: readonly string[];
  /** An unknown person gets an account on first sign-in; otherwise refused. */
  readonly createAccounts: boolean;
  /** false: password log-in (and sign-up) is refused for emails of `allowedDomains`. */
  readonly allowPasswords: boolean;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const providerSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1-32 lower-case letters, digits or -, starting with a letter or digit'),
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    issuer: z.string().refine(isIssuerUrl, 'must be an https URL (http only on localhost, 127.0.0.1 or [::1]) without query or fragment'),
    clientId: z.string().min(1, 'must not be empty').max(500),
    // The message never quotes the value: a wrong secret is still a secret.
    clientSecret: z.string({ message: 'must be a non-empty string' }).min(1, 'must not be empty').max(2000).transform((value) => new Secret(value)),
    allowedDomains: z
      .array(z.string().transform((domain) => domain.trim().toLowerCase()).refine((domain) => DOMAIN.test(domain), 'must be a domain name such as example.com'))
      .max(100)
      .default([]),
    createAccounts: z.boolean().default(false),
    allowPasswords: z.boolean().default(true),
  })
  .strict()
  .refine((provider) => provider.allowPasswords || provider.allowedDomains.length > 0, {
    message: 'allowPasswords: false needs allowedDomains (the domains whose accounts must use this provider)',
    path: ['allowPasswords'],
  });

function isIssuerUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.search || url.hash || url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** Thrown by `parseSsoProviders`; its messages name fields and never quote values. */
export class SsoConfigProblem extends Error {}

/**
 * OIDC_PROVIDERS: a JSON array of providers (empty or unset: no single sign-on, and nothing
 * changes). Every problem is listed, each by the provider's position and field.
 */
export function parseSsoProviders(text: string | undefined): SsoProvider[] {
  if (text === undefined || text.trim() === '') return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text around the error, which may be the secret.
    throw new SsoConfigProblem('is not valid JSON (expected an array of providers)');
  }
  const parsed = z.array(providerSchema).max(20, 'at most 20 providers').safeParse(raw);
  if (!parsed.success) {
    throw new SsoConfigProblem(parsed.error.issues.map((issue) => `${issue.path.length ? `[${issue.path.join('].[')}]` : '(list)'}: ${issue.message}`).join('; '));
  }
  const providers = parsed.data;
  const duplicate = providers.find((provider, index) => providers.findIndex((other) => other.id === provider.id) !== index);
  if (duplicate) throw new SsoConfigProblem(`the id ${duplicate.id} is used twice`);
  return providers;
}

/** The env field: a clear config error at start-up, in the service's list of problems. */
export const ssoProvidersEnv = () =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      try {
        return parseSsoProviders(text);
      } catch (err) {
        if (!(err instanceof SsoConfigProblem)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
        return z.NEVER;
      }
    });

/** The domain of an email, lower-case ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

/** Whether a provider lets this email's domain in. */
export function domainAllowed(provider: SsoProvider, email: string): boolean {
  return provider.allowedDomains.length === 0 || provider.allowedDomains.includes(emailDomain(email));
}

/** The provider that forbids passwords for this email's domain, if one does. */
export function passwordForbiddenBy(providers: readonly SsoProvider[], email: string): SsoProvider | undefined {
  const domain = emailDomain(email);
  return domain ? providers.find((provider) => !provider.allowPasswords && provider.allowedDomains.includes(domain)) : undefined;
}
