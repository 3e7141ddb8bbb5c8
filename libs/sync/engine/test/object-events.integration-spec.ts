import { randomUUID } from 'node:crypto';
import type { ObjectEvent, ObjectEvents } from '@doable/contracts-sync';
import { inProject } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { forEachId } from '../src/command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../src/command-handler';
import { recordObjectEvents } from '../src/object-events';
import { PlanLimitsHarness } from '../testing/plan-limits.harness';

const SUBJECT = 'sync.evt.object-event.v2';

/**
 * A command that records a change for each of its ids and is then refused for those in
 * `refuse`. No real command does that today (each checks before it writes), but the executor
 * promises that what a refused command recorded goes with its savepoint, whole or per id, and a
 * command written later may rely on it; this one holds the executor to it.
 */
class RecordThenRefuseCommand implements CommandHandler {
  readonly type = 'test_record_then_refuse';
  readonly policy = inProject('edit');

  async run(context: CommandContext, args: Record<string, unknown>): Promise<CommandOutcome> {
    const refuse = new Set(args['refuse'] as string[]);
    const projectId = String(args['project_id']);
    return forEachId(context, args, async (id) => {
      await recordObjectEvents(context, [{ objectType: 'item', objectId: String(id), eventType: 'updated', parentProjectId: projectId, parentItemId: null, extraData: { content: `recorded ${id}` } }]);
      context.touch(projectId);
      if (refuse.has(String(id))) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Refused after recording', { argument: 'id' });
    });
  }
}

/**
 * What the commands record as SyncEvents.objectEvent (real PostgreSQL, the real executor): one
 * event per object a command changed, in the command's transaction, so a refused command leaves
 * none and a replayed uuid adds none.
 */
describe('object events from the commands (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  const OWNER = '8801';
  const OTHER = '8802';
  let inbox: string;

  /** The recorded changes, in order: each v2 event's entries. */
  const events = async () => (await harness.events<ObjectEvents>(SUBJECT)).flatMap((message) => message.events);
  const summary = (list: ObjectEvent[]) => list.map((event) => `${event.objectType}:${event.eventType}:${event.objectId}`);
  /** The events a step recorded (those after the count before it). */
  async function recorded(step: () => Promise<unknown>): Promise<ObjectEvent[]> {
    const before = (await events()).length;
    await step();
    return (await events()).slice(before);
  }

  beforeAll(async () => {
    // Events carry the object as the command left it, through the writer the service gives (here: the canonical fields, tagged).
    harness = await PlanLimitsHarness.start('object_events', (objectType, object) => ({ written_as: objectType, ...object }), [new RecordThenRefuseCommand()]);
    inbox = await harness.user(OWNER);
    await harness.user(OTHER);
  });

  afterAll(() => harness.stop());

  it('records each item command as its event, with the task, its project and parent, and who did it', async () => {
    let parent = '';
    const added = await recorded(async () => (parent = await harness.made(OWNER, 'item_add', { content: 'Parent' })));
    expect(added).toEqual([
      expect.objectContaining({ objectType: 'item', objectId: parent, eventType: 'added', initiatorId: OWNER, parentProjectId: inbox, parentItemId: null, workspaceId: null, extraData: { content: 'Parent' } }),
    ]);
    expect(Number.isNaN(new Date(added[0].eventDate).getTime())).toBe(false);
    let child = '';
    const sub = await recorded(async () => (child = await harness.made(OWNER, 'item_add', { content: 'Child', parent_id: parent })));
    expect(sub[0]).toMatchObject({ objectId: child, parentItemId: parent });

    const renamed = await recorded(() => harness.one(OWNER, 'item_update', { id: parent, content: 'Parent 2', due: { date: '2030-01-02' } }));
    expect(renamed).toEqual([expect.objectContaining({ eventType: 'updated', extraData: { content: 'Parent 2', last_content: 'Parent', due_date: '2030-01-02', last_due_date: null } })]);
    // A priority change is an update too (webhooks), with none of the logged fields.
    const priority = await recorded(() => harness.one(OWNER, 'item_update', { id: parent, priority: 4 }));
    expect(priority).toEqual([expect.objectContaining({ eventType: 'updated', extraData: { content: 'Parent 2' } })]);
    // Nothing changed: no event.
    expect(await recorded(() => harness.one(OWNER, 'item_update', { id: parent, priority: 4 }))).toEqual([]);

    expect(summary(await recorded(() => harness.one(OWNER, 'item_complete', { id: parent })))).toEqual([`item:completed:${parent}`, `item:completed:${child}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'item_uncomplete', { id: child })))).toEqual([`item:uncompleted:${child}`, `item:uncompleted:${parent}`]);
    // One event per deleted task: the subtask went with its parent.
    expect(summary(await recorded(() => harness.one(OWNER, 'item_delete', { id: parent })))).toEqual([`item:deleted:${parent}`, `item:deleted:${child}`]);
  });

  it('records notes (with the file url), projects, sections, labels and filters', async () => {
    const project = await harness.made(OWNER, 'project_add', { name: 'Log' });
    const task = await harness.made(OWNER, 'item_add', { content: 'Commented', project_id: project });
    let note = '';
    const noteAdded = await recorded(
      async () => (note = await harness.made(OWNER, 'note_add', { item_id: task, content: 'See file', file_attachment: { resource_type: 'file', file_name: 'a.txt', file_url: 'https://files.test/a.txt' } })),
    );
    expect(noteAdded).toEqual([
      expect.objectContaining({ objectType: 'note', objectId: note, eventType: 'added', parentProjectId: project, parentItemId: task, fileUrl: 'https://files.test/a.txt', extraData: { content: 'See file', parent_item_content: 'Commented' } }),
    ]);
    expect(summary(await recorded(() => harness.one(OWNER, 'note_update', { id: note, content: 'Seen' })))).toEqual([`note:updated:${note}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'note_delete', { id: note })))).toEqual([`note:deleted:${note}`]);

    const rename = await recorded(() => harness.one(OWNER, 'project_update', { id: project, name: 'Logbook' }));
    expect(rename).toEqual([expect.objectContaining({ objectType: 'project', eventType: 'updated', extraData: { name: 'Logbook', last_name: 'Log' } })]);
    const section = await harness.made(OWNER, 'section_add', { name: 'S', project_id: project });
    expect(summary(await recorded(() => harness.one(OWNER, 'section_archive', { id: section })))).toEqual([`section:archived:${section}`]);
    const label = await harness.made(OWNER, 'label_add', { name: 'tag' });
    expect(summary(await recorded(() => harness.one(OWNER, 'label_delete', { id: label })))).toEqual([`label:deleted:${label}`]);
    const filter = await harness.made(OWNER, 'filter_add', { name: 'f', query: 'today' });
    expect(summary(await recorded(() => harness.one(OWNER, 'filter_update', { id: filter, name: 'g' })))).toEqual([`filter:updated:${filter}`]);

    expect(summary(await recorded(() => harness.one(OWNER, 'share_project', { project_id: project, email: `${OTHER}@limits.test` })))).toEqual([`project:shared:${project}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'project_archive', { id: project })))).toEqual([`project:archived:${project}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'project_unarchive', { id: project })))).toEqual([`project:unarchived:${project}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'project_delete', { id: project })))).toEqual([`project:deleted:${project}`]);
  });

  it('carries the object as the command left it, the task before an update, completion or reopening, and who the change concerns', async () => {
    const project = await harness.made(OWNER, 'project_add', { name: 'Shared snapshots' });
    expect(await harness.join(OWNER, project, OTHER)).toBe('ok');
    let task = '';
    const [added] = await recorded(async () => (task = await harness.made(OTHER, 'item_add', { content: 'Before', project_id: project })));
    expect(added).toMatchObject({ object: { written_as: 'item', id: task, content: 'Before', checked: false } });
    expect(added).not.toHaveProperty('previous');
    expect([...added.audience!].sort()).toEqual([OWNER, OTHER].sort());
    const [updated] = await recorded(() => harness.one(OWNER, 'item_update', { id: task, content: 'After' }));
    expect(updated).toMatchObject({ initiatorId: OWNER, object: { content: 'After' }, previous: { content: 'Before' } });
    const [completed] = await recorded(() => harness.one(OWNER, 'item_complete', { id: task }));
    expect(completed).toMatchObject({ eventType: 'completed', object: { checked: true }, previous: { checked: false } });
    const [reopened] = await recorded(() => harness.one(OWNER, 'item_uncomplete', { id: task }));
    expect(reopened).toMatchObject({ eventType: 'uncompleted', object: { checked: false }, previous: { checked: true } });
    const [deleted] = await recorded(() => harness.one(OWNER, 'item_delete', { id: task }));
    expect(deleted).toMatchObject({ object: { is_deleted: true } });
    // Personal objects and the Inbox concern their user alone.
    const [label] = await recorded(() => harness.made(OWNER, 'label_add', { name: 'mine' }));
    expect(label).toMatchObject({ audience: [OWNER], object: { written_as: 'label', name: 'mine' } });
    const [inboxed] = await recorded(() => harness.made(OTHER, 'item_add', { content: 'Private' }));
    expect(inboxed.audience).toEqual([OTHER]);
  });

  it('records reorders and moves as updates of what they move (tasks, projects, sections, labels, filters), and nothing for an unchanged order', async () => {
    const project = await harness.made(OWNER, 'project_add', { name: 'Orders' });
    const other = await harness.made(OWNER, 'project_add', { name: 'Orders 2' });
    const [a, b] = [await harness.made(OWNER, 'item_add', { content: 'a', project_id: project }), await harness.made(OWNER, 'item_add', { content: 'b', project_id: project })];
    const reorder = await recorded(() => harness.one(OWNER, 'item_reorder', { items: [{ id: a, child_order: 7 }, { id: b, child_order: 8 }] }));
    expect(summary(reorder)).toEqual([`item:updated:${a}`, `item:updated:${b}`]);
    expect(reorder[0]).toMatchObject({ object: { child_order: 7 }, extraData: { content: 'a' } });
    expect(await recorded(() => harness.one(OWNER, 'item_reorder', { items: [{ id: a, child_order: 7 }] }))).toEqual([]);
    expect(summary(await recorded(() => harness.one(OWNER, 'item_update_day_orders', { ids_to_orders: { [a]: 3 } })))).toEqual([`item:updated:${a}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'project_reorder', { projects: [{ id: project, child_order: 40 }] })))).toEqual([`project:updated:${project}`]);
    expect(summary(await recorded(() => harness.one(OWNER, 'project_move', { id: other, parent_id: project })))).toEqual([`project:updated:${other}`]);
    const section = await harness.made(OWNER, 'section_add', { name: 'S1', project_id: project });
    expect(summary(await recorded(() => harness.one(OWNER, 'section_reorder', { sections: [{ id: section, section_order: 9 }] })))).toEqual([`section:updated:${section}`]);
    const moved = await recorded(() => harness.one(OWNER, 'section_move', { id: section, project_id: other }));
    expect(moved).toEqual([expect.objectContaining({ objectType: 'section', eventType: 'updated', parentProjectId: other, object: expect.objectContaining({ project_id: other }) })]);
    const label = await harness.made(OWNER, 'label_add', { name: 'ordered' });
    expect(summary(await recorded(() => harness.one(OWNER, 'label_update_orders', { id_order_mapping: { [label]: 5 } })))).toEqual([`label:updated:${label}`]);
    const filter = await harness.made(OWNER, 'filter_add', { name: 'ordered', query: 'today' });
    expect(summary(await recorded(() => harness.one(OWNER, 'filter_update_orders', { id_order_mapping: { [filter]: 5 } })))).toEqual([`filter:updated:${filter}`]);
  });

  it('records nothing for a refused command, and nothing again for a replayed uuid', async () => {
    const refused = await recorded(() => harness.send(OWNER, [{ type: 'item_add', args: { content: 'x', project_id: '999999999' } }]));
    expect(refused).toEqual([]);
    // A command refused after it wrote: the earlier command of the request keeps its event, the refused one's is undone.
    const mixed = await recorded(() =>
      harness.send(OWNER, [
        { type: 'item_add', args: { content: 'kept' }, temp_id: 'kept' },
        { type: 'item_update', args: { id: '999999999', content: 'nope' } },
      ]),
    );
    expect(mixed.map((event) => event.extraData['content'])).toEqual(['kept']);
    const uuid = randomUUID();
    const first = await recorded(() => harness.send(OWNER, [{ type: 'item_add', args: { content: 'once' }, uuid, temp_id: 'once' }]));
    const again = await recorded(() => harness.send(OWNER, [{ type: 'item_add', args: { content: 'once' }, uuid, temp_id: 'once' }]));
    expect(first).toHaveLength(1);
    expect(again).toEqual([]);
  });

  it('drops what a command recorded before it was refused, and keeps its neighbours\' events in the one v2 event', async () => {
    const rowsBefore = await harness.count('sync.outbox WHERE subject = $1', [SUBJECT]);
    const refusedUuid = randomUUID();
    let statuses: unknown[] = [];
    let ids: Record<string, string> = {};
    const changes = await recorded(async () => {
      ({ statuses, ids } = await harness.send(OWNER, [
        { type: 'item_add', args: { content: 'before' }, temp_id: 'before' },
        { type: 'test_record_then_refuse', args: { id: '41', project_id: inbox, refuse: ['41'] }, uuid: refusedUuid },
        { type: 'item_add', args: { content: 'after' }, temp_id: 'after' },
      ]));
    });
    expect(statuses[1]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(summary(changes)).toEqual([`item:added:${ids['before']}`, `item:added:${ids['after']}`]);
    expect(await harness.count('sync.outbox WHERE subject = $1', [SUBJECT])).toBe(rowsBefore + 1);
    // The refusal is remembered: its uuid sent again is answered without running, and records nothing.
    const replayed = await recorded(() => harness.send(OWNER, [{ type: 'test_record_then_refuse', args: { id: '41', project_id: inbox, refuse: [] }, uuid: refusedUuid }]));
    expect(replayed).toEqual([]);
    // Alone in its request: no outbox row at all.
    const alone = await recorded(() => harness.send(OWNER, [{ type: 'test_record_then_refuse', args: { id: '42', project_id: inbox, refuse: ['42'] } }]));
    expect(alone).toEqual([]);
    expect(await harness.count('sync.outbox WHERE subject = $1', [SUBJECT])).toBe(rowsBefore + 1);
  });

  it('drops what one id of a command recorded before that id was refused, and keeps the other ids\' events', async () => {
    let statuses: unknown[] = [];
    const changes = await recorded(async () => {
      ({ statuses } = await harness.send(OWNER, [{ type: 'test_record_then_refuse', args: { ids: ['51', '52', '53'], project_id: inbox, refuse: ['52'] } }]));
    });
    expect(statuses[0]).toMatchObject({ '51': 'ok', '52': expect.objectContaining({ error_tag: 'INVALID_ARGUMENT_VALUE' }), '53': 'ok' });
    expect(summary(changes)).toEqual(['item:updated:51', 'item:updated:53']);
  });

  it('records a group of 100 item_add (written together) as ONE v2 event of 100 entries, in order', async () => {
    const commands = Array.from({ length: 100 }, (_, index) => ({ type: 'item_add', args: { content: `bulk ${index}` }, temp_id: `t${index}` }));
    let ids: Record<string, string> = {};
    const rowsBefore = await harness.count('sync.outbox WHERE subject = $1', [SUBJECT]);
    const bulk = await recorded(async () => (ids = (await harness.send(OWNER, commands)).ids));
    expect(bulk.map((event) => event.objectId)).toEqual(commands.map((command) => ids[command.temp_id]));
    expect(new Set(bulk.map((event) => event.eventType))).toEqual(new Set(['added']));
    expect(await harness.count('sync.outbox WHERE subject = $1', [SUBJECT])).toBe(rowsBefore + 1);
  });

  it('records the changes of a request of several commands as ONE v2 event, in order, without those of a refused command', async () => {
    const project = await harness.made(OWNER, 'project_add', { name: 'One event' });
    const rowsBefore = await harness.count('sync.outbox WHERE subject = $1', [SUBJECT]);
    let ids: Record<string, string> = {};
    const changes = await recorded(async () => {
      ids = (
        await harness.send(OWNER, [
          { type: 'item_add', args: { content: 'first', project_id: project }, temp_id: 'first' },
          { type: 'section_add', args: { name: 'Later', project_id: project }, temp_id: 'section' },
          // Refused after the first two wrote: only its own changes are undone.
          { type: 'item_update', args: { id: '999999999', content: 'nope' } },
          { type: 'item_update', args: { id: 'first', content: 'first, renamed' } },
          { type: 'project_update', args: { id: project, name: 'One event, renamed' } },
        ])
      ).ids;
    });
    expect(summary(changes)).toEqual([`item:added:${ids['first']}`, `section:added:${ids['section']}`, `item:updated:${ids['first']}`, `project:updated:${project}`]);
    expect(await harness.count('sync.outbox WHERE subject = $1', [SUBJECT])).toBe(rowsBefore + 1);
  });

  it('cuts a call of more than 100 changes into v2 events of at most 100 (a task deleted with its 120 subtasks)', async () => {
    const MANY = '8803';
    await harness.user(MANY);
    const parent = await harness.made(MANY, 'item_add', { content: 'Many children' });
    const children = await harness.send(MANY, Array.from({ length: 120 }, (_, index) => ({ type: 'item_add', args: { content: `child ${index}`, parent_id: parent } })));
    expect(new Set(children.statuses)).toEqual(new Set(['ok']));
    const rowsBefore = await harness.count('sync.outbox WHERE subject = $1', [SUBJECT]);
    const deleted = await recorded(() => harness.one(MANY, 'item_delete', { id: parent }));
    expect(deleted).toHaveLength(121);
    expect(deleted[0]).toMatchObject({ objectId: parent, eventType: 'deleted' });
    const sizes = (await harness.events<ObjectEvents>(SUBJECT)).slice(-2).map((message) => message.events.length);
    expect(await harness.count('sync.outbox WHERE subject = $1', [SUBJECT])).toBe(rowsBefore + 2);
    expect(sizes).toEqual([100, 21]);
  });

  it('carries the workspace of a workspace project, read with the access check, not by a read of its own', async () => {
    const project = await harness.made(OWNER, 'project_add', { name: 'Team' });
    const [{ id: workspaceId }] = await harness.dataSource.query<Array<{ id: string }>>(
      `INSERT INTO sync.workspaces (name, creator_id, invite_code, version) VALUES ('Team space', $1, 'code', 1) RETURNING id::text`,
      [OWNER],
    );
    await harness.dataSource.query(`UPDATE sync.projects SET workspace_id = $1 WHERE id = $2`, [workspaceId, project]);
    const task = await harness.made(OWNER, 'item_add', { content: 'In a workspace', project_id: project });
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    let update: ObjectEvent[];
    try {
      update = await recorded(() => harness.one(OWNER, 'item_update', { id: task, content: 'Still in it' }));
      expect(spy.mock.calls.map((call) => String(call[0])).filter((sql) => sql.includes('workspace_id IS NOT NULL'))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(update).toEqual([expect.objectContaining({ objectId: task, workspaceId })]);
    const note = await recorded(() => harness.made(OWNER, 'note_add', { project_id: project, content: 'On the project' }));
    expect(note).toEqual([expect.objectContaining({ objectType: 'note', workspaceId, parentItemId: null })]);
  });
});
