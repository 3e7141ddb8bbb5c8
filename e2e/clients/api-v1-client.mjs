// Drives the unmodified @doist/todoist-api-typescript 5.9.0 (api/v1 REST, zod validation of
// every response, {results, next_cursor} pages) through the shared api/v1 walk and prints what it
// saw as one JSON line.
// Env: DOABLE_URL (origin), DOABLE_TOKEN, DOABLE_OTHER_TOKEN (a second account).
import { createRequire } from 'node:module';
import { driveApiV1 } from './api-v1-driver.mjs';

const require = createRequire(import.meta.url);
const { TodoistApi } = require('todoist-api-ts-v5');

const url = process.env.DOABLE_URL;
const report = await driveApiV1({
  api: new TodoistApi(process.env.DOABLE_TOKEN, url),
  other: new TodoistApi(process.env.DOABLE_OTHER_TOKEN, url),
  stranger: new TodoistApi('0000000000000000000000000000000000000000', url),
});
process.stdout.write(`${JSON.stringify(report)}\n`);
