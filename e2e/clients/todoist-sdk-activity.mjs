// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through the activity log and
// prints what it saw as one JSON line. Every page passes the SDK's own validation
// (validateActivityEventArray: ActivityEventSchema), so a shape it rejects makes this script fail.
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token).
import { TodoistApi } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const brief = (event) => `${event.objectType}:${event.eventType}:${event.objectId}`;

const all = [];
let cursor = null;
let pages = 0;
do {
  const page = await api.getActivityLogs({ limit: 3, ...(cursor ? { cursor } : {}) });
  all.push(...page.results.map(brief));
  cursor = page.nextCursor;
  pages++;
} while (cursor && pages < 50);
const completed = await api.getActivityLogs({ objectEventTypes: ['task:completed'] });
const comments = await api.getActivityLogs({ objectEventTypes: ['comment:'] });
console.log(JSON.stringify({ all, pages, completed: completed.results.map(brief), comments: comments.results.map(brief) }));
