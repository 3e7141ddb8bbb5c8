import type { Dialect } from '@doable/contracts-common';
import { env } from '@doable/shared-config';
import { z } from 'zod';

/** The generations marked deprecated (sync-interface §9), all in favour of the current one. */
export const DEPRECATED_GENERATIONS = ['sync-v9', 'sync-v8', 'sync-v7', 'sync-v6', 'first-generation'] as const satisfies readonly Dialect[];
export type DeprecatedGeneration = (typeof DEPRECATED_GENERATIONS)[number];

/** Where every old generation's clients should go: the current Sync API. */
export const SUCCESSOR_PATH = '/api/v1/sync';

/**
 * The spec shows no dates (§9: "Retirement dates of old versions: not shown"). A date in the
 * past says "deprecated already", which every old generation is; operators set their own.
 */
export const DEFAULT_DEPRECATION_DATE = '2025-01-01T00:00:00Z';

/** An ISO 8601 date or date-time (`2026-06-30`, `2026-06-30T12:00:00Z`); empty when allowed and unset. */
function isoDate(fallback: string) {
  return z
    .string()
    .trim()
    .default(fallback)
    .refine((value) => value === '' || (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))), 'must be an ISO 8601 date such as 2026-06-30 or 2026-06-30T00:00:00Z');
}

/**
 * Per generation: `DEPRECATION_DATE_<GEN>` (when it was or will be deprecated: the `Deprecation`
 * header) and `SUNSET_DATE_<GEN>` (when it stops answering: `Sunset`, sent only when set);
 * `DEPRECATION_DOCS_URL` adds a `rel="deprecation"` link to the operator's notice.
 */
export const deprecationEnv = z.object({
  DEPRECATION_DATE_SYNC_V9: isoDate(DEFAULT_DEPRECATION_DATE),
  DEPRECATION_DATE_SYNC_V8: isoDate(DEFAULT_DEPRECATION_DATE),
  DEPRECATION_DATE_SYNC_V7: isoDate(DEFAULT_DEPRECATION_DATE),
  DEPRECATION_DATE_SYNC_V6: isoDate(DEFAULT_DEPRECATION_DATE),
  DEPRECATION_DATE_FIRST_GENERATION: isoDate(DEFAULT_DEPRECATION_DATE),
  SUNSET_DATE_SYNC_V9: isoDate(''),
  SUNSET_DATE_SYNC_V8: isoDate(''),
  SUNSET_DATE_SYNC_V7: isoDate(''),
  SUNSET_DATE_SYNC_V6: isoDate(''),
  SUNSET_DATE_FIRST_GENERATION: isoDate(''),
  DEPRECATION_DOCS_URL: z.union([z.literal(''), env.url(['http', 'https'])]).default(''),
});
export type DeprecationEnv = z.infer<typeof deprecationEnv>;

/** One generation's dates, in milliseconds since the epoch. */
export interface DeprecationDates {
  readonly deprecatedAt: number;
  readonly sunsetAt?: number;
}

export interface DeprecationSettings {
  readonly generations: Readonly<Record<DeprecatedGeneration, DeprecationDates>>;
  readonly docsUrl?: string;
}

/** `sync-v7` → `SYNC_V7`, `first-generation` → `FIRST_GENERATION`: the variables' suffix. */
export function envSuffix(dialect: Dialect): string {
  return dialect.toUpperCase().replace(/-/g, '_');
}

export function deprecationSettings(config: DeprecationEnv): DeprecationSettings {
  const read = (name: string): string => (config as unknown as Record<string, string>)[name] ?? '';
  const generations = Object.fromEntries(
    DEPRECATED_GENERATIONS.map((generation) => {
      const deprecated = read(`DEPRECATION_DATE_${envSuffix(generation)}`) || DEFAULT_DEPRECATION_DATE;
      const sunset = read(`SUNSET_DATE_${envSuffix(generation)}`);
      return [generation, { deprecatedAt: Date.parse(deprecated), ...(sunset ? { sunsetAt: Date.parse(sunset) } : {}) }];
    }),
  ) as Record<DeprecatedGeneration, DeprecationDates>;
  return { generations, ...(config.DEPRECATION_DOCS_URL ? { docsUrl: config.DEPRECATION_DOCS_URL } : {}) };
}

function isDeprecated(dialect: Dialect): dialect is DeprecatedGeneration {
  return (DEPRECATED_GENERATIONS as readonly Dialect[]).includes(dialect);
}

/**
 * The headers marking a request's generation deprecated, or none for a current one (api/v1,
 * REST, MCP): `Deprecation: @<unix seconds>` (RFC 9745, a structured-field date), `Sunset:
 * <HTTP-date>` (RFC 8594) when a retirement date is set, and `Link` to the successor
 * (`rel="successor-version"`, RFC 5829) and to the operator's notice (`rel="deprecation"`).
 */
export function deprecationHeaders(dialect: Dialect, settings: DeprecationSettings): Record<string, string> {
  if (!isDeprecated(dialect)) return {};
  const dates = settings.generations[dialect];
  const links = [`<${SUCCESSOR_PATH}>; rel="successor-version"`];
  if (settings.docsUrl) links.push(`<${settings.docsUrl}>; rel="deprecation"; type="text/html"`);
  return {
    Deprecation: `@${Math.floor(dates.deprecatedAt / 1000)}`,
    ...(dates.sunsetAt !== undefined ? { Sunset: new Date(dates.sunsetAt).toUTCString() } : {}),
    Link: links.join(', '),
  };
}
