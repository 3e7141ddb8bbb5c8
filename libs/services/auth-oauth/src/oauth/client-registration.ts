import { isValidRedirectUri, MAX_REDIRECT_URIS } from './oauth-app.service';

/** What a dynamic registration (RFC 7591) may ask for, once checked. */
export interface PublicClientRequest {
  readonly name: string;
  readonly redirectUris: readonly string[];
}

export type RegistrationCheck = { readonly ok: true; readonly client: PublicClientRequest } | { readonly ok: false; readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata'; readonly description: string };

const MAX_CLIENT_NAME = 100;
export const DEFAULT_CLIENT_NAME = 'Unnamed assistant';

function refuse(error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string): RegistrationCheck {
  return { ok: false, error, description };
}

/**
 * Checks a client's metadata (RFC 7591 §2). Only public clients register themselves here:
 * `token_endpoint_auth_method` "none" (absent means "none" too: we issue no secrets this way),
 * the authorization-code grant and the code response type, and at least one redirect URL of
 * the kind the console accepts. No refresh tokens are issued: `refresh_token` among the grant
 * types is dropped and the answer says so (RFC 7591 §3.2.1: the server answers what it will do).
 */
export function checkClientMetadata(body: unknown): RegistrationCheck {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('invalid_client_metadata', 'The body must be a JSON object');
  const metadata = body as Record<string, unknown>;
  const redirectUris = metadata['redirect_uris'];
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) return refuse('invalid_redirect_uri', 'redirect_uris must list at least one URL');
  if (redirectUris.length > MAX_REDIRECT_URIS) return refuse('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris`);
  if (!redirectUris.every((uri): uri is string => typeof uri === 'string' && isValidRedirectUri(uri))) return refuse('invalid_redirect_uri', 'Each redirect URI must be an absolute http(s) URL without a fragment or credentials');
  const method = metadata['token_endpoint_auth_method'];
  if (method !== undefined && method !== 'none') return refuse('invalid_client_metadata', 'Only public clients register here: token_endpoint_auth_method must be "none" (and PKCE is required)');
  const grantTypes = metadata['grant_types'];
  if (grantTypes !== undefined && (!Array.isArray(grantTypes) || !grantTypes.includes('authorization_code') || !grantTypes.every((grant) => grant === 'authorization_code' || grant === 'refresh_token'))) {
    return refuse('invalid_client_metadata', 'grant_types must include authorization_code (and nothing but refresh_token besides)');
  }
  const responseTypes = metadata['response_types'];
  if (responseTypes !== undefined && (!Array.isArray(responseTypes) || !responseTypes.every((type) => type === 'code'))) return refuse('invalid_client_metadata', 'response_types may only be ["code"]');
  const rawName = metadata['client_name'];
  if (rawName !== undefined && typeof rawName !== 'string') return refuse('invalid_client_metadata', 'client_name must be a string');
  const name = (rawName ?? '').trim().slice(0, MAX_CLIENT_NAME) || DEFAULT_CLIENT_NAME;
  return { ok: true, client: { name, redirectUris: [...new Set(redirectUris)] } };
}
