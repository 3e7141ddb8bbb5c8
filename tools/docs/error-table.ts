import { ERROR_CATALOG } from '@doable/shared-errors';

/**
 * The error codes table of docs/api/errors.md, rendered from the one catalog every transport
 * maps from (libs/shared/errors/src/error-catalog.ts), so the page cannot drift from what
 * clients receive. In catalog order, which groups the codes by what they are about.
 */
export function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOG).map(([code, { http, errorCode, tag, message }]) => `| \`${code}\` | ${http} | ${errorCode} | \`${tag}\` | ${message.replace(/\|/g, '\\|')} |`);
  return ['| code | HTTP status | `error_code` | `error_tag` | `error` (message) |', '|---|--:|--:|---|---|', ...rows].join('\n');
}
