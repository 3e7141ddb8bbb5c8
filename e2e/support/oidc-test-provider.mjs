// A real OpenID Connect provider for the single sign-on e2e: oidc-provider (a certified
// implementation) in a process of its own, so Jest never loads it (it is ESM with many ESM
// dependencies). It listens on a loopback port at once and prints {"issuer"}; then reads one
// line of JSON on stdin, {clientId, clientSecret, redirectUris, accounts}, builds the provider
// (its client needs the system's callback URL, known only once the system is up) and prints
// {"ready":true}. Sign-in is oidc-provider's devInteractions: any login and password; the login
// names one of `accounts`, whose claims the ID token carries.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Provider from 'oidc-provider';

let handler = (_req, res) => {
  res.writeHead(503).end('not configured yet');
};
const server = createServer((req, res) => handler(req, res));
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.once('line', (line) => {
    const { clientId, clientSecret, redirectUris, accounts } = JSON.parse(line);
    const provider = new Provider(issuer, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: true } },
      // PKCE is required of every client (Doable always sends it; the test proves it does).
      pkce: { required: () => true },
      cookies: { keys: ['oidc-test-provider-cookie-key'] },
      async findAccount(_ctx, id) {
        const account = accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: () => ({ sub: account.sub ?? id, ...account.claims }) };
      },
    });
    handler = provider.callback();
    process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
