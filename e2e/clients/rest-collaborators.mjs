// Asks every REST SDK for a shared project's collaborators, unmodified, as a member and as a
// stranger: @doist/todoist-api-typescript 1.7.0 (REST v1, integer ids), 3.0.3 (REST v2), 5.9.0
// and @doist/todoist-sdk 17 (api/v1, paginated `{results, nextCursor}`). Each SDK validates the
// response with its own schema. Prints one JSON line: per SDK, the member's sorted emails and
// the stranger's HTTP status.
// Env: DOABLE_URL (origin), DOABLE_PROJECT_ID, DOABLE_MEMBER_TOKEN, DOABLE_STRANGER_TOKEN.
import { createRequire } from 'node:module';
import { TodoistApi as Sdk17 } from '@doist/todoist-sdk';

const require = createRequire(import.meta.url);
const url = process.env.DOABLE_URL;
const projectId = process.env.DOABLE_PROJECT_ID;
const clients = {
  'rest-v1 (1.7.0)': { make: (token) => new (require('todoist-api-ts-v1').TodoistApi)(token, url), id: Number(projectId) },
  'rest-v2 (3.0.3)': { make: (token) => new (require('todoist-api-ts-v3').TodoistApi)(token, url), id: projectId },
  'api-v1 (5.9.0)': { make: (token) => new (require('todoist-api-ts-v5').TodoistApi)(token, url), id: projectId },
  'api-v1 (sdk 17)': { make: (token) => new Sdk17(token, { baseUrl: url }), id: projectId },
};
const emails = (answer) => (Array.isArray(answer) ? answer : answer.results).map((user) => user.email).sort();
const status = (promise) => promise.then(() => 200, (error) => error.httpStatusCode ?? error.response?.status ?? String(error.message));

const report = {};
for (const [name, { make, id }] of Object.entries(clients)) {
  report[name] = {
    member: emails(await make(process.env.DOABLE_MEMBER_TOKEN).getProjectCollaborators(id)),
    stranger: await status(make(process.env.DOABLE_STRANGER_TOKEN).getProjectCollaborators(id)),
  };
}
console.log(JSON.stringify(report));
