// Drives the unmodified official SDK's OAuth helpers (@doist/todoist-sdk 17, ESM) against a
// Doable server and prints what it saw as one JSON line.
// Env: DOABLE_URL, CLIENT_ID, CLIENT_SECRET, CODE (an authorization code), PERSONAL_TOKEN.
import { getAuthToken, migratePersonalToken, revokeToken, TodoistApi } from '@doist/todoist-sdk';

const baseUrl = process.env.DOABLE_URL;
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET;
const report = {};

const exchanged = await getAuthToken({ clientId, clientSecret, code: process.env.CODE }, { baseUrl });
report.exchanged = { tokenType: exchanged.tokenType, accessToken: exchanged.accessToken };

const api = new TodoistApi(exchanged.accessToken, { baseUrl });
const synced = await api.sync({ syncToken: '*', resourceTypes: ['projects'] });
report.projects = synced.projects?.map((project) => project.name);

try {
  await getAuthToken({ clientId, clientSecret, code: process.env.CODE }, { baseUrl });
  report.replay = 'accepted';
} catch (err) {
  report.replay = { status: err.httpStatusCode, data: err.responseData };
}

report.revoked = await revokeToken({ clientId, clientSecret, token: exchanged.accessToken }, { baseUrl });

try {
  await revokeToken({ clientId, clientSecret: 'wrong-secret', token: exchanged.accessToken }, { baseUrl });
  report.wrongSecret = 'accepted';
} catch (err) {
  report.wrongSecret = { status: err.httpStatusCode };
}

const migrated = await migratePersonalToken({ clientId, clientSecret, personalToken: process.env.PERSONAL_TOKEN, scope: ['data:read'] }, { baseUrl });
report.migrated = { accessToken: migrated.accessToken, tokenType: migrated.tokenType, expiresIn: migrated.expiresIn };

process.stdout.write(`${JSON.stringify(report)}\n`);
