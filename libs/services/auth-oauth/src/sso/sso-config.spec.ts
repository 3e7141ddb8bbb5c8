import { inspect } from 'node:util';
import { loadConfig, redactConfig } from '@doable/shared-config';
import { z } from 'zod';
import { domainAllowed, parseSsoProviders, passwordForbiddenBy, SsoConfigProblem, ssoProvidersEnv } from './sso-config';

const SECRET = 'super-secret-value-0123456789';
const keycloak = { id: 'keycloak', name: 'Acme Keycloak', issuer: 'https://sso.acme.example/realms/acme', clientId: 'doable', clientSecret: SECRET };

describe('OIDC_PROVIDERS', () => {
  it('is no single sign-on when unset or blank', () => {
    expect(parseSsoProviders(undefined)).toEqual([]);
    expect(parseSsoProviders('  ')).toEqual([]);
  });

  it('reads a provider with its defaults: any domain, no new accounts, passwords allowed', () => {
    const [provider] = parseSsoProviders(JSON.stringify([keycloak]));
    expect(provider).toMatchObject({ id: 'keycloak', name: 'Acme Keycloak', issuer: keycloak.issuer, clientId: 'doable', allowedDomains: [], createAccounts: false, allowPasswords: true });
    expect(provider.clientSecret.reveal()).toBe(SECRET);
  });

  it('lower-cases the allowed domains', () => {
    const [provider] = parseSsoProviders(JSON.stringify([{ ...keycloak, allowedDomains: [' Acme.Example '] }]));
    expect(provider.allowedDomains).toEqual(['acme.example']);
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    ['not a list', '{}', /\(list\)/],
    ['a bad id', JSON.stringify([{ ...keycloak, id: 'Key Cloak' }]), /\[0\]\.\[id\]/],
    ['an http issuer elsewhere than loopback', JSON.stringify([{ ...keycloak, issuer: 'http://sso.acme.example' }]), /\[0\]\.\[issuer\]: must be an https URL/],
    ['an issuer with a query', JSON.stringify([{ ...keycloak, issuer: 'https://sso.acme.example/?x=1' }]), /\[issuer\]/],
    ['a missing secret', JSON.stringify([{ ...keycloak, clientSecret: undefined }]), /\[0\]\.\[clientSecret\]/],
    ['an unknown field', JSON.stringify([{ ...keycloak, secret: 'x' }]), /secret/],
    ['a bad domain', JSON.stringify([{ ...keycloak, allowedDomains: ['not a domain'] }]), /\[allowedDomains\]\.\[0\]: must be a domain name/],
    ['passwords off without domains', JSON.stringify([{ ...keycloak, allowPasswords: false }]), /allowPasswords: false needs allowedDomains/],
    ['a boolean as a string', JSON.stringify([{ ...keycloak, createAccounts: 'yes' }]), /\[createAccounts\]/],
    ['an id twice', JSON.stringify([keycloak, { ...keycloak, name: 'Again' }]), /the id keycloak is used twice/],
  ])('refuses %s with a message naming the field', (_, text, message) => {
    expect(() => parseSsoProviders(text)).toThrow(SsoConfigProblem);
    expect(() => parseSsoProviders(text)).toThrow(message);
  });

  it('accepts plain http only on a loopback issuer (development and tests)', () => {
    for (const issuer of ['http://localhost:8080/realms/dev', 'http://127.0.0.1:9000', 'http://[::1]:9000']) {
      expect(parseSsoProviders(JSON.stringify([{ ...keycloak, issuer }]))[0].issuer).toBe(issuer);
    }
  });

  it('is a start-up config error listing the problem, never the secret, even when the JSON around it is broken', () => {
    const schema = z.object({ OIDC_PROVIDERS: ssoProvidersEnv() });
    const broken = `[{"id":"k","clientSecret":"${SECRET}",}]`;
    expect(() => loadConfig('auth-oauth', schema, { OIDC_PROVIDERS: broken })).toThrow(/OIDC_PROVIDERS: is not valid JSON/);
    expect(() => loadConfig('auth-oauth', schema, { OIDC_PROVIDERS: broken })).not.toThrow(new RegExp(SECRET));
    const wrong = JSON.stringify([{ ...keycloak, issuer: 'ftp://x' }]);
    expect(() => loadConfig('auth-oauth', schema, { OIDC_PROVIDERS: wrong })).not.toThrow(new RegExp(SECRET));
  });

  it('keeps the client secret out of the logged configuration, JSON and inspection', () => {
    const config = loadConfig('auth-oauth', z.object({ OIDC_PROVIDERS: ssoProvidersEnv() }), { OIDC_PROVIDERS: JSON.stringify([keycloak]) });
    expect(JSON.stringify(redactConfig(config))).not.toContain(SECRET);
    expect(inspect(config, { depth: 10 })).not.toContain(SECRET);
    expect(String(config.OIDC_PROVIDERS[0].clientSecret)).toBe('[redacted]');
  });
});

describe('the domain rules', () => {
  const [open, strict] = parseSsoProviders(
    JSON.stringify([
      { ...keycloak, id: 'open' },
      { ...keycloak, id: 'strict', allowedDomains: ['acme.example'], allowPasswords: false },
    ]),
  );

  it('lets any domain in without a list, only listed ones with', () => {
    expect(domainAllowed(open, 'a@anything.example')).toBe(true);
    expect(domainAllowed(strict, 'a@ACME.example')).toBe(true);
    expect(domainAllowed(strict, 'a@sub.acme.example')).toBe(false);
    expect(domainAllowed(strict, 'a@acme.example.evil')).toBe(false);
  });

  it('refuses passwords for the domains of a provider that says so', () => {
    expect(passwordForbiddenBy([open, strict], 'Ann@Acme.Example')?.id).toBe('strict');
    expect(passwordForbiddenBy([open, strict], 'ann@other.example')).toBeUndefined();
    expect(passwordForbiddenBy([open], 'ann@acme.example')).toBeUndefined();
    expect(passwordForbiddenBy([open, strict], '')).toBeUndefined();
  });
});
