import { checkClientMetadata, DEFAULT_CLIENT_NAME } from './client-registration';

describe('dynamic client registration metadata', () => {
  const valid = { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };

  it('takes a public client with its name and redirect URLs', () => {
    expect(checkClientMetadata(valid)).toEqual({ ok: true, client: { name: 'Claude', redirectUris: ['https://claude.ai/api/mcp/auth_callback'] } });
    expect(checkClientMetadata({ redirect_uris: ['http://127.0.0.1:33418/callback', 'http://127.0.0.1:33418/callback'] })).toEqual({ ok: true, client: { name: DEFAULT_CLIENT_NAME, redirectUris: ['http://127.0.0.1:33418/callback'] } });
  });

  it.each([
    ['no redirect URL', { ...valid, redirect_uris: [] }, 'invalid_redirect_uri'],
    ['a relative redirect URL', { ...valid, redirect_uris: ['/callback'] }, 'invalid_redirect_uri'],
    ['a redirect URL with a fragment', { ...valid, redirect_uris: ['https://a.example/cb#x'] }, 'invalid_redirect_uri'],
    ['a custom scheme', { ...valid, redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    ['eleven redirect URLs', { ...valid, redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, 'invalid_redirect_uri'],
    ['a confidential client', { ...valid, token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
    ['the implicit grant', { ...valid, grant_types: ['implicit'] }, 'invalid_client_metadata'],
    ['the token response type', { ...valid, response_types: ['token'] }, 'invalid_client_metadata'],
    ['a name that is not text', { ...valid, client_name: 7 }, 'invalid_client_metadata'],
    ['a body that is not an object', ['x'], 'invalid_client_metadata'],
  ])('refuses %s', (_, body, error) => {
    expect(checkClientMetadata(body)).toMatchObject({ ok: false, error });
  });
});
