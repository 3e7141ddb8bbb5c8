import { http } from '@doable/shared-testing';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { type CallbackServer, launchChromium, startCallbackServer } from './support/browser';
import { startExtraGateway } from './support/extra-gateway';
import { McpDriver } from './support/mcp-driver';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { uploadMultipart } from './support/uploads';
import { useSystem } from './support/use-system';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

describe.each(MODES)('assistant server /mcp (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const { sync, run } = syncSession(() => system, () => account, 'mcp');
  const items = async () => (await sync({ sync_token: '*', resource_types: ['items'] })).items as any[];

  describe('the transport', () => {
    it('answers a request without a token with 401 and the protected resource it guards', async () => {
      const response = await http(system.url, 'POST', '/mcp', { json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${system.url}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('says the token is invalid when one was sent', async () => {
      const response = await http(system.url, 'POST', '/mcp', { token: 'f'.repeat(40), json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${system.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);
    });

    it('is stateless: GET and DELETE are 405 with Allow: POST, and no session id is issued', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await http(system.url, method, '/mcp', { token: account.token });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
      const response = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'doable' }, capabilities: { tools: {} } } });
    });

    it('refuses a browser page of another origin (DNS rebinding) with a coded 403', async () => {
      const response = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: { ...MCP_ACCEPT, origin: 'https://evil.example.net' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: Origin https://evil.example.net is not allowed' }, id: null });
      const sameOrigin = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: { ...MCP_ACCEPT, origin: system.url } });
      expect(sameOrigin.status).toBe(200);
    });
  });

  describe('malformed calls (issue #28)', () => {
    const call = (params: unknown) => http(system.url, 'POST', '/mcp', { token: account.token, headers: MCP_ACCEPT, json: { jsonrpc: '2.0', id: 7, method: 'tools/call', params } });

    it('answers tools/call with arguments that are no object as -32602 (invalid params), not -32603', async () => {
      for (const params of [{ name: 'add-tasks', arguments: 'x' }, { name: 42 }, { arguments: {} }]) {
        const response = await call(params);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      }
    });

    it('reports the refused id of reorder-objects with its own tag, not as UNKNOWN', async () => {
      const response = await call({ name: 'reorder-objects', arguments: { type: 'task', ids: ['999999999'] } });
      expect(response.status).toBe(200);
      expect(response.body.result).toMatchObject({ isError: true, _meta: { error_tag: 'ITEM_NOT_FOUND', id: '999999999' } });
      expect(response.body.result.content[0].text).toMatch(/^ITEM_NOT_FOUND: 999999999: /);
    });
  });

  describe('the official SDK client with a personal token', () => {
    let client: McpDriver;
    beforeAll(async () => {
      client = new McpDriver();
      await client.ok({ op: 'connect', url: `${system.url}/mcp`, token: account.token });
    });
    afterAll(() => client.stop());

    it('lists the tools, each with an input and an output schema', async () => {
      const { tools } = await client.ok({ op: 'list' });
      const names = tools.map((tool: any) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['add-tasks', 'complete-tasks', 'find-tasks', 'find-projects', 'add-projects', 'user-info']));
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema.type).toBe('object');
      }
    });

    it('adds, finds and completes a task, seen through a sync', async () => {
      const { projects } = await client.tool('add-projects', { projects: [{ name: 'MCP project' }] });
      const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Call the plumber', priority: 'p1', projectId: projects[0].id, labels: ['home'] }] });
      const task = (await items()).find((item) => item.id === tasks[0].id);
      expect(task).toMatchObject({ content: 'Call the plumber', priority: 4, project_id: projects[0].id, labels: ['home'], checked: false });

      const found = await client.tool('find-tasks', { searchText: 'plumber' });
      expect(found.tasks.map((item: any) => item.id)).toEqual([tasks[0].id]);

      const completed = await client.tool('complete-tasks', { ids: [tasks[0].id, '999999999'] });
      expect(completed.succeeded).toEqual([tasks[0].id]);
      expect(completed.failed).toEqual([{ id: '999999999', tag: 'ITEM_NOT_FOUND', error: expect.any(String) }]);
      expect((await items()).some((item) => item.id === tasks[0].id)).toBe(false);
    });

    it('answers who the token belongs to', async () => {
      expect(await client.tool('user-info')).toMatchObject({ id: account.userId, email: account.email });
    });

    it('reports a refused operation as a tool error with its tag', async () => {
      const result = await client.ok({ op: 'call', name: 'update-projects', arguments: { projects: [{ id: '123456789', name: 'x' }] } });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^PROJECT_NOT_FOUND: /);
    });
  });

  describe('every tool, against a seeded account, seen through a sync', () => {
    let client: McpDriver;
    const ctx: Record<string, any> = {};
    const state = async (...types: string[]) => sync({ sync_token: '*', resource_types: types });
    const today = new Date().toISOString().slice(0, 10);
    beforeAll(async () => {
      client = new McpDriver();
      await client.ok({ op: 'connect', url: `${system.url}/mcp`, token: account.token });
    });
    afterAll(() => client.stop());

    /** Makes objects through the Sync API (fixtures a step's tool reads); answers their ids by temp id. */
    const made = async (...commands: Array<{ type: string; args: Record<string, unknown>; temp_id?: string }>) => {
      const { statuses, mapping } = await run(...commands);
      expect(statuses).toEqual(commands.map(() => 'ok'));
      return mapping;
    };
    /** A file uploaded as the account (api/v1), its attachment put on a new comment of the task: the comment's id and the attachment. */
    const attach = async (taskId: string, name: string, bytes: Uint8Array, type: string) => {
      const upload = await uploadMultipart(system.url, '/api/v1/uploads', { name, bytes, type }, { token: account.token });
      expect(upload.status).toBe(200);
      const ids = await made({ type: 'note_add', temp_id: 'n', args: { item_id: taskId, content: `see ${name}`, file_attachment: upload.body } });
      return { commentId: ids['n'], fileUrl: upload.body.file_url as string };
    };

    /** [tool, arguments from what earlier steps made (fixtures made on the way), what the step checks]. Run in order. */
    const steps: Array<[string, () => Record<string, unknown> | Promise<Record<string, unknown>>, (out: any) => Promise<void> | void]> = [
      ['add-projects', () => ({ projects: [{ name: 'Table project', color: 'blue' }, { name: 'Second project' }] }), async (out) => {
        [ctx.project, ctx.project2] = out.projects;
        expect((await state('projects')).projects.find((p: any) => p.id === ctx.project.id)).toMatchObject({ name: 'Table project', color: 'blue' });
      }],
      ['update-projects', () => ({ projects: [{ id: ctx.project.id, name: 'Table project (renamed)' }] }), async () => {
        expect((await state('projects')).projects.find((p: any) => p.id === ctx.project.id).name).toBe('Table project (renamed)');
      }],
      ['find-projects', () => ({ searchText: 'renamed' }), (out) => expect(out.projects.map((p: any) => p.id)).toEqual([ctx.project.id])],
      ['project-move', () => ({ id: ctx.project2.id, parentId: ctx.project.id }), async () => {
        expect((await state('projects')).projects.find((p: any) => p.id === ctx.project2.id).parent_id).toBe(ctx.project.id);
      }],
      ['add-sections', () => ({ sections: [{ name: 'Doing', projectId: ctx.project.id }, { name: 'Done', projectId: ctx.project.id }] }), async (out) => {
        [ctx.section, ctx.section2] = out.sections;
        expect((await state('sections')).sections.filter((x: any) => x.project_id === ctx.project.id).map((x: any) => x.name).sort()).toEqual(['Doing', 'Done']);
      }],
      ['update-sections', () => ({ sections: [{ id: ctx.section.id, name: 'In progress' }] }), async () => {
        expect((await state('sections')).sections.find((x: any) => x.id === ctx.section.id).name).toBe('In progress');
      }],
      ['find-sections', () => ({ projectId: ctx.project.id }), (out) => expect(out.sections.map((x: any) => x.name).sort()).toEqual(['Done', 'In progress'])],
      ['reorder-objects', () => ({ type: 'section', ids: [ctx.section2.id, ctx.section.id] }), async () => {
        const sections = (await state('sections')).sections;
        expect(sections.find((x: any) => x.id === ctx.section2.id).section_order).toBeLessThan(sections.find((x: any) => x.id === ctx.section.id).section_order);
      }],
      ['add-tasks', () => ({ tasks: [{ content: 'Write the report', projectId: ctx.project.id, sectionId: ctx.section.id, dueString: 'today', priority: 'p2' }, { content: 'Buy stamps', projectId: ctx.project.id }] }), async (out) => {
        [ctx.task, ctx.task2] = out.tasks;
        expect((await state('items')).items.find((x: any) => x.id === ctx.task.id)).toMatchObject({ section_id: ctx.section.id, priority: 3, due: { date: today } });
      }],
      ['update-tasks', () => ({ tasks: [{ id: ctx.task2.id, description: 'Ten of them', sectionId: ctx.section2.id }] }), async () => {
        expect((await state('items')).items.find((x: any) => x.id === ctx.task2.id)).toMatchObject({ description: 'Ten of them', section_id: ctx.section2.id });
      }],
      ['reschedule-tasks', () => ({ tasks: [{ id: ctx.task2.id, date: '2031-05-06' }] }), async (out) => {
        expect(out.succeeded).toEqual([ctx.task2.id]);
        expect((await state('items')).items.find((x: any) => x.id === ctx.task2.id).due.date).toBe('2031-05-06');
      }],
      ['find-tasks', () => ({ projectId: ctx.project.id }), (out) => expect(out.tasks.map((x: any) => x.id).sort()).toEqual([ctx.task.id, ctx.task2.id].sort())],
      ['find-tasks-by-date', () => ({ startDate: 'today' }), (out) => expect(out.tasks.map((x: any) => x.id)).toEqual([ctx.task.id])],
      ['add-labels', () => ({ labels: [{ name: 'urgent', color: 'red' }] }), async (out) => {
        ctx.label = out.labels[0];
        expect((await state('labels')).labels.find((x: any) => x.id === ctx.label.id)).toMatchObject({ name: 'urgent', color: 'red' });
      }],
      ['update-labels', () => ({ labels: [{ id: ctx.label.id, name: 'very-urgent' }] }), async () => {
        expect((await state('labels')).labels.find((x: any) => x.id === ctx.label.id).name).toBe('very-urgent');
      }],
      ['find-labels', () => ({ searchText: 'very' }), (out) => expect(out.labels.map((x: any) => x.id)).toEqual([ctx.label.id])],
      ['add-filters', () => ({ filters: [{ name: 'Urgent today', query: 'today & p1' }] }), async (out) => {
        ctx.filter = out.filters[0];
        expect((await state('filters')).filters.find((x: any) => x.id === ctx.filter.id)).toMatchObject({ name: 'Urgent today', query: 'today & p1' });
      }],
      ['update-filters', () => ({ filters: [{ id: ctx.filter.id, query: 'today' }] }), async (out) => {
        expect(out.filters[0]).toMatchObject({ id: ctx.filter.id, query: 'today' });
        expect((await state('filters')).filters.find((x: any) => x.id === ctx.filter.id).query).toBe('today');
      }],
      ['find-filters', () => ({ searchText: 'urgent' }), (out) => expect(out.filters.map((x: any) => x.id)).toEqual([ctx.filter.id])],
      ['add-comments', () => ({ comments: [{ content: 'First draft attached', taskId: ctx.task.id }] }), async (out) => {
        ctx.comment = out.comments[0];
        expect((await state('notes')).notes.find((x: any) => x.id === ctx.comment.id)).toMatchObject({ item_id: ctx.task.id, content: 'First draft attached' });
      }],
      ['update-comments', () => ({ comments: [{ id: ctx.comment.id, content: 'Second draft attached' }] }), async () => {
        expect((await state('notes')).notes.find((x: any) => x.id === ctx.comment.id).content).toBe('Second draft attached');
      }],
      ['find-comments', () => ({ taskId: ctx.task.id }), (out) => expect(out.comments.map((x: any) => x.id)).toEqual([ctx.comment.id])],
      ['add-reminders', () => ({ reminders: [{ taskId: ctx.task2.id, dueDate: '2031-05-06T09:00:00Z' }] }), async (out) => {
        ctx.reminder = out.reminders[0];
        expect((await state('reminders')).reminders.find((x: any) => x.id === ctx.reminder.id)).toMatchObject({ item_id: ctx.task2.id, type: 'absolute' });
      }],
      ['update-reminders', () => ({ reminders: [{ id: ctx.reminder.id, dueDate: '2031-05-06T08:00:00Z' }] }), async () => {
        expect((await state('reminders')).reminders.find((x: any) => x.id === ctx.reminder.id).due.date).toMatch(/^2031-05-06T08:00:00/);
      }],
      ['find-reminders', () => ({ taskId: ctx.task2.id }), (out) => expect(out.reminders.map((x: any) => x.id)).toEqual([ctx.reminder.id])],
      ['find-project-collaborators', () => ({ projectId: ctx.project.id }), (out) => expect(out.collaborators).toEqual(expect.any(Array))],
      ['manage-assignments', () => ({ operation: 'unassign', taskIds: [ctx.task.id] }), async (out) => {
        expect(out.succeeded).toEqual([ctx.task.id]);
        expect((await state('items')).items.find((x: any) => x.id === ctx.task.id).responsible_uid).toBeNull();
      }],
      ['complete-tasks', () => ({ ids: [ctx.task.id] }), async (out) => {
        expect(out).toEqual({ succeeded: [ctx.task.id], failed: [] });
        expect((await state('items')).items.some((x: any) => x.id === ctx.task.id)).toBe(false);
      }],
      ['find-completed-tasks', () => ({ since: today, until: today }), (out) => expect(out.tasks.map((x: any) => x.id)).toContain(ctx.task.id)],
      ['uncomplete-tasks', () => ({ ids: [ctx.task.id] }), async () => {
        expect((await state('items')).items.find((x: any) => x.id === ctx.task.id).checked).toBe(false);
      }],
      ['find-activity', () => ({ objectType: 'item', objectId: ctx.task.id }), (out) => expect(out.events.map((x: any) => x.event_type)).toEqual(expect.arrayContaining(['added', 'completed', 'uncompleted']))],
      ['get-productivity-stats', () => ({}), (out) => expect(out.stats).toHaveProperty('karma')],
      ['get-overview', () => ({ projectId: ctx.project.id }), (out) => expect(out).toMatchObject({ totalActiveTasks: 2, projects: [{ id: ctx.project.id, activeTasks: 2 }] })],
      ['fetch-object', () => ({ type: 'filter', id: ctx.filter.id }), (out) => expect(out.object).toMatchObject({ id: ctx.filter.id, name: 'Urgent today' })],
      ['export-project-template', () => ({ projectId: ctx.project.id }), (out) => {
        ctx.csv = out.csv;
        expect(out.csv).toContain('Write the report');
      }],
      ['import-project-template', () => ({ projectId: ctx.project2.id, csv: ctx.csv }), async () => {
        expect((await state('items')).items.filter((x: any) => x.project_id === ctx.project2.id).map((x: any) => x.content)).toContain('Write the report');
      }],
      ['list-workspaces', () => ({}), (out) => expect(out.workspaces).toEqual(expect.any(Array))],
      ['user-info', () => ({}), (out) => expect(out).toMatchObject({ id: account.userId, email: account.email })],
      // The template import copied the task into the second project: both match.
      ['search', () => ({ query: 'stamps' }), (out) => {
        expect(out.results).toContainEqual({ id: `task:${ctx.task2.id}`, title: 'Buy stamps', url: `${system.url}/api/v1/tasks/${ctx.task2.id}` });
        expect(out.results.every((result: any) => result.title === 'Buy stamps')).toBe(true);
      }],
      ['fetch', () => ({ id: `task:${ctx.task2.id}` }), (out) => expect(out).toMatchObject({ id: `task:${ctx.task2.id}`, title: 'Buy stamps', text: 'Buy stamps\n\nTen of them' })],
      ['project-management', async () => {
        ctx.projectsToken = (await state('projects')).sync_token;
        return { action: 'archive', projectId: ctx.project2.id };
      }, async (out) => {
        expect(out).toMatchObject({ success: true, project: { id: ctx.project2.id, is_archived: true } });
        const archived = await sync({ sync_token: ctx.projectsToken, resource_types: ['projects'] });
        expect(archived.projects.find((p: any) => p.id === ctx.project2.id)).toMatchObject({ is_archived: true });
        expect((await client.tool('project-management', { action: 'unarchive', projectId: ctx.project2.id })).project).toMatchObject({ is_archived: false });
        const back = await sync({ sync_token: archived.sync_token, resource_types: ['projects'] });
        expect(back.projects.find((p: any) => p.id === ctx.project2.id)).toMatchObject({ is_archived: false });
      }],
      // A project with one overdue task, one due later and one completed today.
      ['get-project-health', async () => {
        const ids = await made(
          { type: 'project_add', temp_id: 'hp', args: { name: 'Health project', description: 'Checked by the assistant' } },
          { type: 'item_add', temp_id: 'late', args: { content: 'Renew the passport', project_id: 'hp', due: { date: '2020-01-06' } } },
          { type: 'item_add', temp_id: 'later', args: { content: 'Plan the trip', project_id: 'hp', due: { date: '2031-01-06' }, priority: 4 } },
          { type: 'item_add', temp_id: 'done', args: { content: 'Book the flights', project_id: 'hp' } },
          { type: 'item_complete', args: { id: 'done' } },
        );
        ctx.health = { project: ids['hp'], late: ids['late'], later: ids['later'], done: ids['done'] };
        return { projectId: ctx.health.project, includeContext: true };
      }, (out) => {
        expect(out).toMatchObject({
          projectId: ctx.health.project,
          projectName: 'Health project',
          progress: { completedCount: 1, activeCount: 2, progressPercent: 33 },
          health: { status: 'AT_RISK', isStale: false, updateInProgress: false, taskRecommendations: [{ taskId: ctx.health.late, recommendation: expect.stringContaining('2020-01-06') }] },
          context: {
            projectDescription: 'Checked by the assistant',
            projectMetrics: { activeTasks: 2, completedTasks: 1, overdueTasks: 1, pastDeadlineTasks: 0, tasksAddedLast7Days: 3, tasksCompletedLast7Days: 1, tasksCompletedPrevious7Days: 0 },
          },
        });
        expect(out.health.descriptionSummary).toBe('1 of 2 active tasks are overdue or past their deadline.');
        expect(out.context.tasks.map((task: any) => [task.id, task.priority, task.due]).sort()).toEqual([[ctx.health.late, 'p4', '2020-01-06'], [ctx.health.later, 'p1', '2031-01-06']].sort());
      }],
      ['analyze-project-health', () => ({ projectId: ctx.health.project }), (out) => {
        expect(out).toMatchObject({ projectId: ctx.health.project, health: { status: 'AT_RISK', isStale: false, updateInProgress: false }, metrics: { overdueTasks: 1, activeTasks: 2 } });
        expect(out.needsAttention).toEqual([{ taskId: ctx.health.late, content: 'Renew the passport', reason: 'overdue', date: '2020-01-06' }]);
      }],
      ['get-project-activity-stats', () => ({ projectId: ctx.health.project, weeks: 1, includeWeeklyCounts: true }), (out) => {
        expect(out.dayItems).toHaveLength(7);
        expect(out.dayItems[6]).toEqual({ date: today, totalCount: 1 });
        expect(out).toMatchObject({ projectId: ctx.health.project, totalCompleted: 1, weekItems: [{ fromDate: out.dayItems[0].date, toDate: today, totalCount: 1 }] });
      }],
      ['get-workspace-insights', async () => {
        const ids = await made(
          { type: 'workspace_add', temp_id: 'w', args: { name: 'Insight team' } },
          { type: 'project_add', temp_id: 'wp', args: { name: 'Team board', workspace_id: 'w' } },
          { type: 'item_add', args: { content: 'Draft the agenda', project_id: 'wp' } },
        );
        ctx.workspace = { id: ids['w'], project: ids['wp'] };
        return { workspaceIdOrName: 'insight' };
      }, (out) => {
        expect(out).toEqual({
          workspaceId: ctx.workspace.id,
          workspaceName: 'Insight team',
          projectInsights: [{ projectId: ctx.workspace.project, projectName: 'Team board', health: { status: 'ON_TRACK', isStale: false, updateInProgress: false, reasons: ['Nothing is late.'] }, progress: { completedCount: 0, activeCount: 1, progressPercent: 0 } }],
        });
      }],
      ['view-attachment', async () => {
        ctx.textFile = await attach(ctx.task.id, 'notes.txt', Buffer.from('Remember the milk\n'), 'text/plain');
        return { commentId: ctx.textFile.commentId };
      }, async (out) => {
        expect(out).toEqual({
          attachment: { fileName: 'notes.txt', fileType: 'text/plain', fileSize: 18, fileUrl: ctx.textFile.fileUrl, commentId: ctx.textFile.commentId },
          content: 'text',
          text: 'Remember the milk\n',
          thumbnail: false,
          omitted: null,
        });
        // An image comes as an image block after the JSON; a URL that is not one of ours is never fetched.
        const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366cc' } }).png().toBuffer();
        const image = await attach(ctx.task.id, 'chart.png', png, 'image/png');
        const shown = await client.ok({ op: 'call', name: 'view-attachment', arguments: { fileUrl: image.fileUrl } });
        expect(shown.structuredContent).toMatchObject({ content: 'image', attachment: { fileName: 'chart.png', fileType: 'image/png', fileSize: png.length, commentId: null }, thumbnail: false });
        expect(shown.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
        // An image over the 5 MiB bound is shown as its 528 px thumbnail (JPEG).
        const noise = await sharp({ create: { width: 1600, height: 1600, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
        expect(noise.length).toBeGreaterThan(5 * 1024 * 1024);
        const large = await attach(ctx.task.id, 'noise.png', noise, 'image/png');
        const thumbnail = await client.ok({ op: 'call', name: 'view-attachment', arguments: { commentId: large.commentId } });
        expect(thumbnail.structuredContent).toMatchObject({ content: 'image', thumbnail: true, attachment: { fileSize: noise.length, fileType: 'image/png' } });
        expect(thumbnail.content[1]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
        expect(await sharp(Buffer.from(thumbnail.content[1].data, 'base64')).metadata()).toMatchObject({ format: 'jpeg', width: 528, height: 528 });
        const foreign = await client.ok({ op: 'call', name: 'view-attachment', arguments: { fileUrl: 'https://files.example.net/uploads/x.png' } });
        expect(foreign).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^NOT_FOUND: /) }] });
      }],
      ['delete-object', () => ({ type: 'reminder', id: ctx.reminder.id }), async () => {
        expect((await state('reminders')).reminders.some((x: any) => x.id === ctx.reminder.id)).toBe(false);
      }],
    ];

    /** Read models filled from events after the command answered (the activity log): asked again until they show it. */
    const EVENTUAL = new Set(['find-activity']);

    it.each(steps)('%s', async (name, args, check) => {
      if (!EVENTUAL.has(name)) return check(await client.tool(name, await args()));
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          return await check(await client.tool(name, await args()));
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    });

    it('refuses the write tool to a read-only token as every interface does, and runs the read ones', async () => {
      const readOnly = await system.createScopedToken(account.userId, ['data:read']);
      const call = async (name: string, args: Record<string, unknown>) => {
        const response = await http(system.url, 'POST', '/mcp', { token: readOnly, headers: MCP_ACCEPT, json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
        expect(response.status).toBe(200);
        return response.body.result;
      };
      const refused = await call('project-management', { action: 'archive', projectId: ctx.health.project });
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^FORBIDDEN: /) }], _meta: { error_tag: 'FORBIDDEN' } });
      expect((await state('projects')).projects.find((p: any) => p.id === ctx.health.project).is_archived).toBe(false);
      const health = await call('get-project-health', { projectId: ctx.health.project });
      expect(health.isError).toBeUndefined();
      expect(health.structuredContent.health.status).toBe('AT_RISK');
      expect((await call('view-attachment', { commentId: ctx.textFile.commentId })).structuredContent.text).toBe('Remember the milk\n');
    });

    it('covers every tool the server lists', async () => {
      const { tools } = await client.ok({ op: 'list' });
      expect(tools.map((tool: any) => tool.name).sort()).toEqual([...new Set(steps.map(([name]) => name))].sort());
    });
  });

  describe('the official SDK client through OAuth (discovery, registration, PKCE, consent in Chromium)', () => {
    const password = 'correct horse battery staple 42';
    let browser: Browser;
    let callback: CallbackServer;
    let client: McpDriver;
    let owner: { userId: string; email: string; token: string };
    let clientId: string;
    let accessToken: string;
    let secondGateway: Awaited<ReturnType<typeof startExtraGateway>> | undefined;
    const ownerItems = async () => (await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['items'] } })).body.items as any[];

    beforeAll(async () => {
      [browser, callback, owner] = await Promise.all([launchChromium(), startCallbackServer(), system.createAccount({ password })]);
      client = new McpDriver();
    });
    afterAll(async () => {
      client?.stop();
      await Promise.all([browser?.close(), callback?.close(), secondGateway?.close()]);
    });

    it('publishes where the resource is authorised, and how to register', async () => {
      const resource = await http(system.url, 'GET', '/.well-known/oauth-protected-resource/mcp');
      expect(resource.body).toEqual({
        resource: `${system.url}/mcp`,
        authorization_servers: [system.url],
        bearer_methods_supported: ['header'],
        scopes_supported: ['data:read_write', 'data:read', 'data:delete', 'task:add', 'project:delete'],
        resource_name: 'Doable',
      });
      expect((await http(system.url, 'GET', '/.well-known/oauth-protected-resource')).body).toEqual(resource.body);
      const server = await http(system.url, 'GET', '/.well-known/oauth-authorization-server');
      expect(server.body).toMatchObject({ registration_endpoint: `${system.url}/oauth/register`, code_challenge_methods_supported: ['S256'] });
      expect(server.body.token_endpoint_auth_methods_supported).toContain('none');
    });

    it('connects after the user allows it in the browser, and its tools act on the account', async () => {
      const asked = await client.send({ op: 'connect', url: `${system.url}/mcp`, redirectUrl: callback.url });
      expect(asked.event).toBe('authorize');
      const authorizeUrl = new URL(asked.url);
      expect(authorizeUrl.pathname).toBe('/oauth/authorize');
      expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizeUrl.searchParams.get('resource')).toBe(`${system.url}/mcp`);
      clientId = authorizeUrl.searchParams.get('client_id')!;
      // The SDK stops there until the user has answered: the app would open a browser.
      expect((await client.next()).error).toMatchObject({ name: 'UnauthorizedError' });

      const page = await browser.newPage();
      await page.goto(authorizeUrl.toString());
      await page.waitForURL(/\/auth\/login\?next=/);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      await expect(page.locator('[data-testid="public-client"]').textContent()).resolves.toContain(new URL(callback.url).host);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.toString().startsWith(callback.url));
      const code = new URL(page.url()).searchParams.get('code');
      await page.close();

      const finished = await client.ok({ op: 'finishAuth', code });
      expect(finished).toMatchObject({ tokens: true, clientId });
      accessToken = finished.accessToken;
      await client.ok({ op: 'connect', url: `${system.url}/mcp`, redirectUrl: callback.url });
      const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Authorised through OAuth' }] });
      expect((await ownerItems()).find((item) => item.id === tasks[0].id)).toMatchObject({ content: 'Authorised through OAuth', user_id: owner.userId });
    });

    if (mode === 'cluster') {
      it('keeps its session when the next requests reach another gateway replica', async () => {
        secondGateway = await startExtraGateway(system);
        await client.ok({ op: 'retarget', url: secondGateway.url });
        const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Answered by the second replica' }] });
        expect(await client.tool('find-tasks', { searchText: 'second replica' })).toMatchObject({ tasks: [{ id: tasks[0].id }] });
        await client.ok({ op: 'retarget', url: system.url });
        expect((await client.tool('user-info')).id).toBe(owner.userId);
      });
    }

    it('answers a revoked token with 401 and the challenge, so the client authorises again', async () => {
      const revoked = await http(system.url, 'POST', '/api/v1/revoke', { form: { client_id: clientId, token: accessToken } });
      expect(revoked.status).toBe(200);
      const refused = await http(system.url, 'POST', '/mcp', { token: accessToken, json: INITIALIZE, headers: MCP_ACCEPT });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
      // The SDK meets the 401, goes back to the authorization page, and reports it unauthorised.
      const answer = await client.send({ op: 'call', name: 'user-info', arguments: {} });
      expect(answer.event).toBe('authorize');
      expect((await client.next()).error).toMatchObject({ name: 'UnauthorizedError' });
    });
  });
});
