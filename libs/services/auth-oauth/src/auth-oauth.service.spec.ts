import { authOauthService } from './auth-oauth.service';

describe("auth-oauth's settings", () => {
  it('keeps PUBLIC_URL unset when it is not given (the web app then follows the request origin), and trims a trailing slash', () => {
    expect(authOauthService.env.safeParse({}).data?.PUBLIC_URL).toBeUndefined();
    expect(authOauthService.env.safeParse({ PUBLIC_URL: 'https://doable.example/' }).data?.PUBLIC_URL).toBe('https://doable.example');
  });
});
