import { checkClientIdUrl, checkClientMetadataDocument, isPublicAddress } from './client-metadata-policy';

describe('client metadata documents: what may be fetched', () => {
  const strict = { allowPrivate: false };

  it('takes an https URL with a path', () => {
    expect(checkClientIdUrl('https://assistant.example/oauth/client.json', strict)).toMatchObject({ ok: true });
  });

  it.each([
    ['http://assistant.example/client.json', 'https'],
    ['https://assistant.example/', 'path'],
    ['https://user:pw@assistant.example/client.json', 'credentials'],
    ['https://assistant.example/client.json#x', 'fragment'],
    ['https://assistant.example/a/../client.json', 'normal form'],
    ['https://ASSISTANT.example/client.json', 'normal form'],
    [`https://assistant.example/${'a'.repeat(2100)}`, 'too long'],
  ])('refuses %s', (url, reason) => {
    expect(checkClientIdUrl(url, strict)).toMatchObject({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('allows plain http only in development', () => {
    expect(checkClientIdUrl('http://127.0.0.1:4000/client.json', { allowPrivate: true })).toMatchObject({ ok: true });
  });

  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-address'])('counts %s as not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('counts %s as public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('checks the document vouches for its own URL and lists redirect URLs', () => {
    const url = 'https://assistant.example/client.json';
    expect(checkClientMetadataDocument(url, { client_id: url, client_name: 'Assistant', redirect_uris: ['https://assistant.example/cb'] })).toEqual({ ok: true, metadata: { name: 'Assistant', redirectUris: ['https://assistant.example/cb'] } });
    expect(checkClientMetadataDocument(url, { client_id: url, redirect_uris: ['https://assistant.example/cb'] })).toMatchObject({ ok: true, metadata: { name: 'assistant.example' } });
    expect(checkClientMetadataDocument(url, { client_id: 'https://other.example/client.json', redirect_uris: ['https://a.example/cb'] })).toMatchObject({ ok: false });
    expect(checkClientMetadataDocument(url, { client_id: url, redirect_uris: ['javascript:alert(1)'] })).toMatchObject({ ok: false });
    expect(checkClientMetadataDocument(url, [])).toMatchObject({ ok: false });
  });
});
