import { commandHandlers } from '@doable/sync-engine/testing';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { CpuPool, Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { CommandExecutor } from '@doable/sync-engine';
import { LabelRepository, PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { givePlan } from '@doable/sync-domain/testing';
import { TemplateImportCommand } from './template-import.command';
import { TemplateReadsRepository } from './template-reads.repository';
import { TemplatesService } from './templates.service';
import { parseTodoistCsv } from './todoist-csv';

const USER_ID = '7301';
const BARE_ID = '7302';
const STRANGER_ID = '7303';
const principal = (userId: string): Principal => ({ userId, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' });

const refusalOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, argument: err.extra['argument'] };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('TemplatesService: Todoist CSV export and import through the command executor (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  let service: TemplatesService;
  // The service parses a template's CSV on its CPU pool: a real one, one thread.
  const pool = new CpuPool({ size: 1, maxQueue: 4 });
  let sourceId = '';

  const count = async (table: string, userId: string) =>
    Number((await dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM sync.${table} WHERE project_id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1)`, [userId]))[0].n);

  beforeAll(async () => {
    database = await createTestDatabase('templates');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const [id, name] of [
      [USER_ID, 'Tess'],
      [BARE_ID, 'Bare'],
      [STRANGER_ID, 'Stranger'],
    ]) {
      await dataSource.transaction(async (manager) => {
        await profiles.createWithInbox(manager, { id, email: `${id}@test`, fullName: name, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true });
        await givePlan(manager, id, id === BARE_ID ? { templates: false } : {});
      });
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [labels] = [new LabelRepository()];
    const members = new ProjectMembersRepository();
    const handlers = await commandHandlers();
    executor = new CommandExecutor(db, profiles, handlers, logger, [new TemplateImportCommand(handlers, labels, members)], members, new PlanLimitsRepository(), new WorkspaceMembersRepository());
    service = new TemplatesService(db, executor, new TemplateReadsRepository(), new PlanLimitsRepository(), pool);

    const cmd = (type: string, args: Record<string, unknown>, temp_id?: string) => ({ type, uuid: randomUUID(), args, ...(temp_id ? { temp_id } : {}) });
    const setup = await executor.run(principal(USER_ID), [
      cmd('project_add', { name: 'Launch', view_style: 'board' }, 'p'),
      cmd('note_add', { project_id: 'p', content: 'Read me first' }),
      cmd('item_add', { project_id: 'p', content: 'Write plan', description: 'Two pages,\n"quoted"', priority: 4, labels: ['work', 'deep'], due: { string: 'every monday' } }, 'plan'),
      cmd('note_add', { item_id: 'plan', content: 'Draft is in the drive' }),
      cmd('item_add', { parent_id: 'plan', content: 'Outline', priority: 3, due: { date: '2030-05-06' }, duration: { amount: 45, unit: 'minute' } }, 'outline'),
      cmd('item_add', { parent_id: 'outline', content: 'Headings', due: { date: '2030-05-07T09:30:00Z', timezone: 'Europe/Paris' }, deadline: { date: '2030-05-10' } }),
      cmd('section_add', { project_id: 'p', name: 'Later' }, 's'),
      cmd('item_add', { section_id: 's', content: 'Retro', priority: 2, responsible_uid: USER_ID }),
      cmd('section_add', { project_id: 'p', name: 'Empty' }),
    ]);
    expect(Object.values(setup.syncStatus)).toEqual(Array(9).fill('ok'));
    sourceId = setup.tempIdMapping['p'];
  });

  afterAll(async () => {
    await pool.close();
    await dataSource.destroy();
    await database.drop();
  });

  it('exports the project as the CSV Todoist writes', async () => {
    const { fileName, csv } = await service.exportFile(principal(USER_ID), { project_id: sourceId });
    expect(fileName).toBe('Launch.csv');
    const lines = csv.split('\n');
    expect(lines[0]).toBe('TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG');
    expect(lines[1]).toBe('meta,view_style=board,,,,,,,,,,,,');
    expect(csv).toContain(`note,Read me first,,,,Tess (${USER_ID})`);
    expect(csv).toContain(`task,Write plan @work @deep,"Two pages,\n""quoted""",1,1,Tess (${USER_ID}),,every monday,en,`);
    expect(csv).toContain(`task,Outline,,2,2,Tess (${USER_ID}),,2030-05-06,en,,45,minute,,`);
    expect(csv).toContain('task,Headings,,4,3,');
    expect(csv).toContain(`section,Later`);
    expect(csv).toContain(`task,Retro,,3,1,Tess (${USER_ID}),Tess (${USER_ID})`);
  });

  it('reproduces the project: a new project from its export exports the same file (sections, hierarchy, priorities, labels, dates, notes)', async () => {
    const { csv } = await service.exportFile(principal(USER_ID), { project_id: sourceId });
    const copyId = await service.createProject(principal(USER_ID), { name: 'Launch', file: csv }, null);
    expect(copyId).not.toBe(sourceId);
    const copy = await service.exportFile(principal(USER_ID), { project_id: copyId });
    expect(await parseTodoistCsv(copy.csv)).toEqual(await parseTodoistCsv(csv));
    const [project] = await dataSource.query<Array<{ view_style: string }>>(`SELECT view_style FROM sync.projects WHERE id = $1`, [copyId]);
    expect(project.view_style).toBe('board');
    // Recurring stays recurring; a one-off date keeps its day and its fixed zone.
    const dues = await dataSource.query<Array<{ content: string; due: { is_recurring: boolean; date: string; timezone: string | null } }>>(
      `SELECT content, due FROM sync.items WHERE project_id = $1 AND due IS NOT NULL ORDER BY content`,
      [copyId],
    );
    expect(dues.map(({ content, due }) => [content, due.is_recurring, due.date.slice(0, 10), due.timezone])).toEqual([
      ['Headings', false, '2030-05-07', 'Europe/Paris'],
      ['Outline', false, '2030-05-06', null],
      ['Write plan', true, expect.any(String), null],
    ]);
  });

  it('imports into an existing project beside what it holds, and answers the api/v1 import shape', async () => {
    const setup = await executor.run(principal(USER_ID), [{ type: 'project_add', uuid: randomUUID(), temp_id: 't', args: { name: 'Target' } }]);
    const targetId = setup.tempIdMapping['t'];
    const projectId = await service.importIntoProject(principal(USER_ID), { project_id: targetId, file: 'TYPE,CONTENT,PRIORITY,INDENT\ntask,One @home,1,1\nnote,hi,,\nsection,S,,\ntask,Two,,1\n' }, null);
    expect(projectId).toBe(targetId);
    const body = await service.importResponse(USER_ID, targetId);
    expect(body).toMatchObject({ status: 'ok', project_id: targetId, projects: [expect.objectContaining({ id: targetId, name: 'Target' })] });
    expect((body['tasks'] as Array<Record<string, unknown>>).map((task) => [task['content'], task['priority'], task['labels'], task['note_count']])).toEqual([
      ['One', 4, ['home'], 1],
      ['Two', 1, [], 0],
    ]);
    expect((body['sections'] as Array<Record<string, unknown>>).map((section) => section['name'])).toEqual(['S']);
    expect((body['comments'] as Array<Record<string, unknown>>).map((comment) => comment['content'])).toEqual(['hi']);
    const [label] = await dataSource.query<Array<{ name: string }>>(`SELECT name FROM sync.labels WHERE user_id = $1 AND name = 'home'`, [USER_ID]);
    expect(label).toEqual({ name: 'home' });
  });

  it('runs an import with an X-Request-Id once', async () => {
    const requestId = `tpl-${randomUUID()}`;
    const file = 'TYPE,CONTENT\ntask,Only once\n';
    const first = await service.createProject(principal(USER_ID), { name: 'Once', file }, requestId);
    const again = await service.createProject(principal(USER_ID), { name: 'Once', file }, requestId);
    expect(again).toBe(first);
    const [{ n }] = await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.projects WHERE id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND name = 'Once'`, [USER_ID]);
    expect(n).toBe(1);
  });

  it('is all or nothing: a part refused (a date no parser reads) leaves no project, section or task behind', async () => {
    const before = await Promise.all(['items', 'sections', 'notes'].map((table) => count(table, USER_ID)));
    const file = 'TYPE,CONTENT,DATE\nsection,Half,\ntask,Fine,\ntask,Broken,not a date at all zzz\n';
    const refusal = await refusalOf(service.createProject(principal(USER_ID), { name: 'Half', file }, null));
    expect(refusal.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(await Promise.all(['items', 'sections', 'notes'].map((table) => count(table, USER_ID)))).toEqual(before);
    const [{ n }] = await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.projects WHERE id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND name = 'Half'`, [USER_ID]);
    expect(n).toBe(0);
  });

  it('refuses a malformed file, a missing argument, another user\'s project and a plan without templates, writing nothing', async () => {
    expect(await refusalOf(service.importIntoProject(principal(USER_ID), { project_id: sourceId, file: 'TYPE,CONTENT\nfolder,x\n' }, null))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'file' });
    expect(await refusalOf(service.importIntoProject(principal(USER_ID), { project_id: sourceId }, null))).toEqual({ code: 'ARGUMENT_MISSING', argument: 'file' });
    expect(await refusalOf(service.exportFile(principal(USER_ID), {}))).toEqual({ code: 'ARGUMENT_MISSING', argument: 'project_id' });
    expect(await refusalOf(service.exportFile(principal(STRANGER_ID), { project_id: sourceId }))).toEqual({ code: 'PROJECT_NOT_FOUND', argument: 'project_id' });
    expect(await refusalOf(service.importIntoProject(principal(STRANGER_ID), { project_id: sourceId, file: 'TYPE,CONTENT\ntask,x\n' }, null))).toEqual({
      code: 'PROJECT_NOT_FOUND',
      argument: 'project_id',
    });
    expect((await refusalOf(service.exportFile(principal(BARE_ID), { project_id: sourceId }))).code).toBe('FEATURE_NOT_IN_PLAN');
    expect((await refusalOf(service.createProject(principal(BARE_ID), { name: 'No', file: 'TYPE,CONTENT\ntask,x\n' }, null))).code).toBe('FEATURE_NOT_IN_PLAN');
    expect(await refusalOf(service.importFromTemplateId(principal(USER_ID), { project_id: sourceId, template_id: '42' }))).toEqual({ code: 'TEMPLATE_NOT_FOUND', argument: 'template_id' });
    expect(await count('items', STRANGER_ID)).toBe(0);
    expect(await count('items', BARE_ID)).toBe(0);
  });
});
