// One full sync of everything through the unmodified official SDK, which validates every object
// it receives; prints the count of each resource array. Env: DOABLE_URL, DOABLE_TOKEN.
import { TodoistApi } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const started = Date.now();
const response = await api.sync({ syncToken: '*', resourceTypes: ['all'] });
const counts = Object.fromEntries(Object.entries(response).filter(([, value]) => Array.isArray(value)).map(([key, value]) => [key, value.length]));
process.stdout.write(`${JSON.stringify({ fullSync: response.fullSync, counts, ms: Date.now() - started })}\n`);
