// The sequence an application runs with an unmodified @doist/todoist-api-typescript (1.7.0,
// 3.0.3 or 5.9.0): exchange a code, call the API, revoke the token, call again. The second call
// must be refused: a revoked token works nowhere once the revoke call has returned. Repeated
// for every code given. Prints, per round, whether the call after the revoke was refused.
// Env: DOABLE_URL (the gateway the API calls go to), DOABLE_REVOKE_URL (the gateway the revoke
// goes to; defaults to DOABLE_URL), SDK (v1, v3, v5), CLIENT_ID, CLIENT_SECRET, CODES (JSON list).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sdk = require(`todoist-api-ts-${process.env.SDK}`);
const baseUrl = process.env.DOABLE_URL;
const revokeUrl = process.env.DOABLE_REVOKE_URL ?? baseUrl;
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET;
const rounds = [];

for (const code of JSON.parse(process.env.CODES)) {
  const { accessToken } = await sdk.getAuthToken({ clientId, clientSecret, code }, baseUrl);
  const api = new sdk.TodoistApi(accessToken, baseUrl);
  await api.getProjects();
  const before = true;
  const revoked = await sdk.revokeAuthToken({ clientId, clientSecret, accessToken }, revokeUrl);
  let after;
  try {
    await api.getProjects();
    after = 'accepted';
  } catch (err) {
    after = err.httpStatusCode ?? String(err);
  }
  rounds.push({ before, revoked, after });
}

process.stdout.write(`${JSON.stringify(rounds)}\n`);
