import { isIP } from 'node:net';
import { isValidRedirectUri, MAX_REDIRECT_URIS } from './oauth-app.service';

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): a client whose
 * `client_id` is an https URL is described by the JSON document at that URL. Fetching a URL a
 * stranger names is a server-side request: these rules keep it to public web servers.
 */
export interface MetadataFetchPolicy {
  /** Development only: plain http and loopback/private addresses (a document served on this machine). */
  readonly allowPrivate: boolean;
}

export const MAX_CLIENT_ID_URL_LENGTH = 2048;
export const METADATA_TIMEOUT_MS = 3000;
export const METADATA_MAX_BYTES = 5 * 1024;

/** Whether a client id names a metadata document (rather than being one we issued). */
export function isUrlClientId(clientId: unknown): clientId is string {
  return typeof clientId === 'string' && /^https?:\/\//i.test(clientId);
}

/** The URL to fetch, or why not: https, a path, no credentials, fragment or dot segments. */
export function checkClientIdUrl(clientId: string, policy: MetadataFetchPolicy): { ok: true; url: URL } | { ok: false; reason: string } {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) return { ok: false, reason: 'client_id is too long' };
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return { ok: false, reason: 'client_id is not a URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) return { ok: false, reason: 'client_id must be an https URL' };
  if (url.username !== '' || url.password !== '' || clientId.includes('#')) return { ok: false, reason: 'client_id must not carry credentials or a fragment' };
  if (url.pathname === '/' || /\/\.\.?(\/|$)/.test(url.pathname)) return { ok: false, reason: 'client_id must name a document (a path without dot segments)' };
  if (url.href !== clientId) return { ok: false, reason: 'client_id must be written in its normal form' };
  return { ok: true, url };
}

/**
 * Addresses a server-side fetch must not reach: loopback, private (RFC 1918, unique-local),
 * link-local (cloud metadata lives there), carrier-grade NAT, unspecified, multicast, and
 * IPv4 written inside IPv6.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    const [a, b] = address.split('.').map(Number);
    return !(a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a >= 224);
  }
  if (family === 6) {
    const lower = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return isPublicAddress(mapped[1]);
    return !(lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff') || lower.startsWith('::ffff:'));
  }
  return false;
}

export interface ClientMetadata {
  readonly name: string;
  readonly redirectUris: readonly string[];
}

/** The document's promises, checked: it names itself, lists its redirect URLs, and is a public client. */
export function checkClientMetadataDocument(clientId: string, document: unknown): { ok: true; metadata: ClientMetadata } | { ok: false; reason: string } {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { ok: false, reason: 'the document is not a JSON object' };
  const fields = document as Record<string, unknown>;
  if (fields['client_id'] !== clientId) return { ok: false, reason: 'the document\'s client_id is not its own URL' };
  const redirectUris = fields['redirect_uris'];
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS || !redirectUris.every((uri): uri is string => typeof uri === 'string' && isValidRedirectUri(uri))) {
    return { ok: false, reason: 'the document must list valid redirect_uris' };
  }
  const method = fields['token_endpoint_auth_method'];
  // A document cannot hold a secret (it is public); key-based client authentication is not offered.
  if (method !== undefined && method !== 'none') return { ok: false, reason: 'only public clients (token_endpoint_auth_method "none") are supported' };
  const rawName = fields['client_name'];
  const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim().slice(0, 100) : new URL(clientId).host;
  return { ok: true, metadata: { name, redirectUris: [...new Set(redirectUris)] } };
}
