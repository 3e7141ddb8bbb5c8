/** The operator's providers (OIDC_PROVIDERS, parsed by sso-config.ts); empty without single sign-on. */
export const SSO_PROVIDERS = Symbol('SSO_PROVIDERS');
