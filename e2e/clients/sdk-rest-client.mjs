// Drives the unmodified @doist/todoist-sdk 17 (ESM, api/v1 REST, zod validation of every
// response) through the shared api/v1 walk, plus what only it has (search, section archive),
// and prints what it saw as one JSON line.
// Env: DOABLE_URL (origin), DOABLE_TOKEN, DOABLE_OTHER_TOKEN (a second account).
import { TodoistApi } from '@doist/todoist-sdk';
import { driveApiV1 } from './api-v1-driver.mjs';

const baseUrl = process.env.DOABLE_URL;
const report = await driveApiV1({
  api: new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl }),
  other: new TodoistApi(process.env.DOABLE_OTHER_TOKEN, { baseUrl }),
  stranger: new TodoistApi('0000000000000000000000000000000000000000', { baseUrl }),
  sdk: true,
  // sdk 17 sends no X-Request-Id of its own to api/v1; its `headers` option adds one.
  withRequestId: (requestId) => new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl, headers: { 'X-Request-Id': requestId } }),
});
process.stdout.write(`${JSON.stringify(report)}\n`);
