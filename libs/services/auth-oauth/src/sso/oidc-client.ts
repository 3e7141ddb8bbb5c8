import { Injectable } from '@nestjs/common';
import * as client from 'openid-client';
import type { SsoClaims } from './sso-accounts';
import type { SsoProvider } from './sso-config';

/** How long discovery and the token request may take (seconds, openid-client's unit). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** A failed discovery is tried again on a later sign-in, not at every click within this. */
const DISCOVERY_RETRY_MS = 5_000;

/** What the callback must find again: made at the redirect, kept server-side (sso-logins.ts). */
export interface PendingChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The provider could not be reached, or its discovery document was refused: a 502 page. */
export class ProviderUnavailable extends Error {}

/**
 * openid-client around each provider: discovery once per provider (cached; a failure is tried
 * again later, so a provider down at start-up does not stop the service), the authorization URL
 * with PKCE (S256), nonce and state, and the callback validated entirely by openid-client
 * (state, issuer `iss` when the provider sends it, code exchange with the client secret, the
 * ID token's signature, issuer, audience, expiry and nonce, PKCE).
 */
@Injectable()
export class OidcClient {
  private readonly configurations = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();

  async authorizationUrl(provider: SsoProvider, redirectUri: string): Promise<{ url: URL; checks: PendingChecks }> {
    const configuration = await this.configuration(provider);
    const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url, checks };
  }

  /** The person the provider vouches for; throws what openid-client throws when anything is off. */
  async callback(provider: SsoProvider, callbackUrl: URL, checks: PendingChecks): Promise<SsoClaims> {
    const configuration = await this.configuration(provider);
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('the provider sent no ID token');
    // Providers may keep scope claims out of the ID token (OpenID Connect Core §5.4: they are
    // returned by the UserInfo endpoint when an access token is issued); openid-client checks
    // that its `sub` is the ID token's.
    const profile: Record<string, unknown> = idToken['email'] === undefined ? { ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken } : idToken;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      issuer: idToken.iss,
      subject: idToken.sub,
      email: text(profile['email']),
      emailVerified: profile['email_verified'] === true,
      name: text(profile['name']),
    };
  }

  private configuration(provider: SsoProvider): Promise<client.Configuration> {
    const cached = this.configurations.get(provider.id);
    if (cached) return cached.configuration;
    const configuration = client
      .discovery(new URL(provider.issuer), provider.clientId, undefined, client.ClientSecretBasic(provider.clientSecret.reveal()), {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // Plain http is accepted at start-up only for a loopback issuer (sso-config.ts): development and tests.
        execute: new URL(provider.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [],
      })
      .catch((err: unknown) => {
        const entry = this.configurations.get(provider.id);
        setTimeout(() => this.configurations.get(provider.id) === entry && this.configurations.delete(provider.id), DISCOVERY_RETRY_MS).unref();
        throw new ProviderUnavailable(`discovery of ${provider.id} failed: ${(err as Error).name}`);
      });
    this.configurations.set(provider.id, { at: Date.now(), configuration });
    return configuration;
  }
}
