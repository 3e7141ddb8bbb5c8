// Drives the unmodified @doist/todoist-api-typescript 1.7.0 OAuth helpers (getAuthToken and
// revokeAuthToken, which posts to /sync/v8/access_tokens/revoke) against a Doable server and
// prints what it saw as one JSON line.
// Env: DOABLE_URL, CLIENT_ID, CLIENT_SECRET, CODE (an authorization code).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { getAuthToken, revokeAuthToken, TodoistApi } = require('todoist-api-ts-v1');

const baseUrl = process.env.DOABLE_URL;
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET;
const report = {};

const failure = (err) => ({ status: err.httpStatusCode ?? null, data: err.responseData ?? null });

const exchanged = await getAuthToken({ clientId, clientSecret, code: process.env.CODE }, baseUrl);
report.exchanged = { tokenType: exchanged.tokenType, accessToken: exchanged.accessToken };

const api = new TodoistApi(exchanged.accessToken, baseUrl);
report.projects = (await api.getProjects()).map((project) => project.name);

try {
  report.wrongSecret = await revokeAuthToken({ clientId, clientSecret: 'wrong-secret', accessToken: exchanged.accessToken }, baseUrl);
} catch (err) {
  report.wrongSecret = failure(err);
}

report.revoked = await revokeAuthToken({ clientId, clientSecret, accessToken: exchanged.accessToken }, baseUrl);

process.stdout.write(`${JSON.stringify(report)}\n`);
