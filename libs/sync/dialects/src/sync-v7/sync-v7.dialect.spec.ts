import fc from 'fast-check';
import type { SyncRequest, SyncResult } from '@doable/sync-engine';
import { type Item, type Label, type Note, treeFromFlatRows } from '@doable/sync-domain';
import { GENERATED_AT, inbox, errands, item, read } from '../../testing/sync-read.fixture';
import { legacyDueFields, oldSyncDueArg } from '../legacy';
import { parseV7Request, syncV7Dialect } from './sync-v7.dialect';

function note(id: string, itemId: string): Note {
  return { id, project_id: inbox.id, item_id: itemId, posted_uid: '42', content: `note ${id}`, file_attachment: null, uids_to_notify: null, reactions: {}, is_deleted: false, posted_at: GENERATED_AT, updated_at: GENERATED_AT, version: '17' };
}

const label: Label = { id: '501', user_id: '42', name: 'Errand', color: 'charcoal', item_order: 1, is_favorite: false, is_deleted: false, created_at: GENERATED_AT, updated_at: GENERATED_AT, version: '17' };

const request = (body: Record<string, unknown>): SyncRequest => parseV7Request(body);
const render = (result: SyncResult, body: Record<string, unknown> = {}) => syncV7Dialect.render(result, request({ sync_token: '*', resource_types: '["items"]', ...body }));
const rendered = (body: Record<string, unknown>, key = 'items') => body[key] as Array<Record<string, unknown>>;

describe('sync-v7 requests', () => {
  it('reads `all` as v7 meant it, and declares the flat lists it needs read', () => {
    const parsed = request({ sync_token: '*', resource_types: '["all","-filters"]' });
    expect(parsed.resourceTypes).toEqual(['labels', 'projects', 'items', 'notes', 'filters', 'reminders', 'locations', 'user', 'live_notifications', 'collaborators', 'notification_settings', '-filters']);
    expect(parsed.readNeeds).toEqual({ projectTasks: true, allProjects: true, labels: true });
  });

  it('renames item_add placed by flat position to the domain command that places it, dues and flags as the domain takes them', () => {
    const parsed = request({
      commands: JSON.stringify([
        { type: 'item_add', uuid: 'u1', temp_id: 't1', args: { content: 'Child', project_id: 2203306140, indent: 2, item_order: 3, date_string: 'tomorrow', date_lang: 'de', collapsed: 1, labels: [501] } },
        { type: 'item_add', uuid: 'u2', args: { content: 'Plain', date_string: '' } },
        { type: 'item_update', uuid: 'u3', args: { id: 7, indent: 1 } },
        { type: 'item_update', uuid: 'u4', args: { id: 7, priority: 4 } },
      ]),
    });
    expect(parsed.syncToken).toBeNull();
    expect(parsed.commands).toEqual([
      {
        type: 'item_add_flat',
        uuid: 'u1',
        temp_id: 't1',
        args: { content: 'Child', project_id: '2203306140', indent: 2, item_order: 3, due: { string: 'tomorrow', lang: 'de' }, is_collapsed: true, label_ids: ['501'] },
      },
      { type: 'item_add', uuid: 'u2', args: { content: 'Plain', due: null } },
      { type: 'item_update_flat', uuid: 'u3', args: { id: '7', indent: 1 } },
      { type: 'item_update', uuid: 'u4', args: { id: '7', priority: 4 } },
    ]);
    expect(parsed.renderParams).toEqual({ command_types: { u1: 'item_add', u2: 'item_add', u3: 'item_update', u4: 'item_update' } });
  });

  it('takes v7 item_move `{project_items, to_project}` as a move of each id', () => {
    const [move] = request({ commands: [{ type: 'item_move', uuid: 'm', args: { project_items: { '1': [11, 12], '2': [13] }, to_project: 3 } }] }).commands;
    expect(move).toEqual({ type: 'item_move', uuid: 'm', args: { ids: ['11', '12', '13'], project_id: '3' } });
  });

  it('passes the `ids` arrays and item_update_orders_indents as sent', () => {
    const commands = request({
      commands: [
        { type: 'item_complete', uuid: 'a', args: { ids: [1, 2] } },
        { type: 'item_update_orders_indents', uuid: 'b', args: { ids_to_orders_indents: { '1': [2, 1] } } },
      ],
    }).commands;
    expect(commands.map((command) => [command.type, command.args])).toEqual([
      ['item_complete', { ids: ['1', '2'] }],
      ['item_update_orders_indents', { ids_to_orders_indents: { '1': [2, 1] } }],
    ]);
  });

  it('renames a project_add placed by flat position to the domain command that places it', () => {
    const [placed, plain] = request({
      commands: [
        { type: 'project_add', uuid: 'p1', temp_id: 't', args: { name: 'Sub', item_order: 4, indent: 2 } },
        { type: 'project_add', uuid: 'p2', args: { name: 'Top', collapsed: 0 } },
      ],
    }).commands;
    expect(placed).toEqual({ type: 'project_add_flat', uuid: 'p1', temp_id: 't', args: { name: 'Sub', item_order: 4, indent: 2 } });
    expect(plain).toEqual({ type: 'project_add', uuid: 'p2', args: { name: 'Top', is_collapsed: false } });
  });

  it('marks filter_add and comments on a project paid-only (v7 kept filters for paid plans), not task comments', () => {
    const [filter, projectNote, taskNote, label] = request({
      commands: [
        { type: 'filter_add', uuid: 'f', args: { name: 'F', query: 'today' } },
        { type: 'note_add', uuid: 'pn', args: { project_id: 2203306140, content: 'On the project' } },
        { type: 'note_add', uuid: 'tn', args: { item_id: 7, project_id: 2203306140, content: 'On the task' } },
        { type: 'label_add', uuid: 'l', args: { name: 'L' } },
      ],
    }).commands;
    expect([filter.paidOnly, projectNote.paidOnly, taskNote.paidOnly, label.paidOnly]).toEqual(['filters', 'comments', undefined, undefined]);
  });

  it('takes legacy colour indexes as the named colours the domain stores', () => {
    const [project, labelAdd] = request({
      commands: [
        { type: 'project_add', uuid: 'p', args: { name: 'P', color: 1 } },
        { type: 'label_add', uuid: 'l', args: { name: 'L', color: '7' } },
      ],
    }).commands;
    expect(typeof project.args['color']).toBe('string');
    expect(typeof labelAdd.args['color']).toBe('string');
  });
});

describe('sync-v7 items', () => {
  it('places each task by item_order and indent over its whole project, read for the dialect', () => {
    // An incremental read carries only the changed child; its siblings come from the read's context.
    const parent = item('10', { child_order: 1 });
    const first = item('11', { parent_id: '10', child_order: 1 });
    const changed = item('12', { parent_id: '10', child_order: 2, due: { date: '2024-05-07', timezone: null, string: 'tomorrow', lang: 'en', is_recurring: false }, labels: ['errand', 'shared'] });
    const result: SyncResult = {
      read: { ...read(['items'], { fullSync: false }), rows: { items: [changed] }, context: { timezone: 'Europe/Athens', projectTasks: [parent, first, changed], labels: [label] } },
      tempIdMapping: {},
    };
    expect(rendered(render(result))).toEqual([
      {
        id: 12,
        user_id: 42,
        project_id: 2203306140,
        content: 'Task 12',
        date_string: 'tomorrow',
        date_lang: 'en',
        due_date_utc: 'Tue 07 May 2024 20:59:59 +0000',
        indent: 2,
        priority: 1,
        item_order: 3,
        day_order: -1,
        collapsed: 0,
        children: null,
        labels: [501],
        assigned_by_uid: 42,
        responsible_uid: null,
        checked: 0,
        in_history: 0,
        is_deleted: 0,
        is_archived: 0,
        sync_id: null,
        date_added: 'Tue 02 Jan 2024 03:04:05 +0000',
      },
    ]);
  });

  it('round-trips a project tree through item_order and indent (property)', () => {
    // Forests up to four levels deep, each task's parent earlier in the list.
    const forest = fc.array(fc.nat(), { minLength: 1, maxLength: 25 }).map((picks) => {
      const tasks: Item[] = [];
      const depth = new Map<string, number>();
      picks.forEach((pick, index) => {
        const id = String(100 + index);
        const candidates = tasks.filter((task) => (depth.get(task.id) ?? 0) < 3);
        const parent = pick % 3 === 0 || candidates.length === 0 ? null : candidates[pick % candidates.length];
        depth.set(id, parent ? depth.get(parent.id)! + 1 : 0);
        tasks.push(item(id, { parent_id: parent?.id ?? null, child_order: pick % 7 }));
      });
      return tasks;
    });
    fc.assert(
      fc.property(forest, (tasks) => {
        const rows = rendered(render({ read: { ...read(['items']), rows: { items: tasks } }, tempIdMapping: {} }));
        const tree = treeFromFlatRows(rows.map((row) => ({ id: String(row['id']), item_order: row['item_order'] as number, indent: row['indent'] as number })));
        for (const place of tree) expect(place.parent_id).toBe(tasks.find((task) => task.id === place.id)!.parent_id);
        // Siblings keep their stored order (child_order, then id).
        const rank = new Map(tree.map((place) => [place.id, place.child_order]));
        for (const a of tasks) {
          for (const b of tasks) {
            if (a.parent_id === b.parent_id && (a.child_order < b.child_order || (a.child_order === b.child_order && Number(a.id) < Number(b.id)))) {
              expect(rank.get(a.id)!).toBeLessThan(rank.get(b.id)!);
            }
          }
        }
      }),
    );
  });

  it('round-trips date_string both ways (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ''), fc.constantFrom('en', 'de', 'ja'), (text, lang) => {
        const due = oldSyncDueArg({ date_string: text, date_lang: lang }) as { string: string; lang: string };
        expect(due).toEqual({ string: text, lang });
        const back = legacyDueFields({ date: '2024-05-07', timezone: null, string: due.string, lang: due.lang, is_recurring: false }, 'UTC');
        expect([back.date_string, back.date_lang]).toEqual([text, lang]);
      }),
    );
  });

  it('writes projects by flat place over all of the account, with legacy colours and 0/1 flags', () => {
    const child = { ...errands, id: '2203306142', name: 'Child', parent_id: errands.id, child_order: 1, is_collapsed: false };
    const result: SyncResult = { read: { ...read(['projects'], { fullSync: false, projects: [child] }), context: { timezone: 'UTC', projects: [inbox, errands, child] } }, tempIdMapping: {} };
    expect(rendered(syncV7Dialect.render(result), 'projects')).toEqual([
      { id: 2203306142, name: 'Child', color: expect.any(Number), indent: 2, item_order: 3, collapsed: 0, shared: false, is_deleted: 0, is_archived: 0 },
    ]);
  });
});

describe('sync-v7 answers', () => {
  const withNotes = (count: number): SyncResult => ({
    read: { ...read(['notes']), rows: { notes: Array.from({ length: count }, (_, index) => note(String(900 + index), '10')) } },
    tempIdMapping: {},
  });

  it('writes at most ten comments per task, the newest', () => {
    const notes = rendered(syncV7Dialect.render(withNotes(12)), 'notes');
    expect(notes.map((row) => row['id'])).toEqual([902, 903, 904, 905, 906, 907, 908, 909, 910, 911]);
    expect(notes[0]).toMatchObject({ item_id: 10, project_id: 2203306140, posted: 'Mon 06 May 2024 07:08:09 +0000', is_deleted: 0 });
  });

  describe('day_orders_timestamp', () => {
    const agenda = (fullSync: boolean, items: Item[]): SyncResult => ({ read: { ...read(['items'], { fullSync }), version: '40', rows: { items } }, tempIdMapping: {} });

    it('writes no day orders when the request does not ask', () => {
      const body = render(agenda(true, [item('10', { day_order: 3 })]));
      expect(body).not.toHaveProperty('day_orders');
      expect(body).not.toHaveProperty('day_orders_timestamp');
    });

    it('writes them with their timestamp when asked and changed', () => {
      const body = render(agenda(false, [item('10', { day_order: 3 })]), { day_orders_timestamp: '12' });
      expect(body['day_orders']).toEqual({ '10': 3 });
      expect(body['day_orders_timestamp']).toBe('40');
    });

    it('leaves the day_orders entry out when asked and unchanged', () => {
      const body = render(agenda(false, [item('10', { day_order: -1 })]), { day_orders_timestamp: '12' });
      expect(body).not.toHaveProperty('day_orders');
      expect(body['day_orders_timestamp']).toBe('12');
    });
  });

  it('names the command type in every error, whole or per id', () => {
    const parsed = request({ commands: [{ type: 'item_update', uuid: 'a', args: { id: 1, indent: 2 } }, { type: 'item_delete', uuid: 'b', args: { ids: [1, 2] } }, { type: 'item_close', uuid: 'c', args: { id: 1 } }] });
    const refusal = { error_tag: 'ITEM_NOT_FOUND', error_code: 22, error: 'Item not found', http_code: 404, error_extra: {} };
    const body = syncV7Dialect.render({ syncStatus: { a: refusal, b: { '1': 'ok', '2': refusal }, c: 'ok' }, tempIdMapping: {} }, parsed);
    expect(body['sync_status']).toEqual({ a: { ...refusal, command_type: 'item_update' }, b: { '1': 'ok', '2': { ...refusal, command_type: 'item_delete' } }, c: 'ok' });
  });

  it('maps temp ids to integer ids', () => {
    expect(syncV7Dialect.render({ tempIdMapping: { t1: '2203306150' } })['temp_id_mapping']).toEqual({ t1: 2203306150 });
  });

  it('leaves out what v7 did not have', () => {
    const body = syncV7Dialect.render({ read: read(['projects']), tempIdMapping: {} }, request({ sync_token: '*', resource_types: '["projects"]' }));
    expect(Object.keys(body).sort()).toEqual(['full_sync', 'projects', 'sync_token', 'temp_id_mapping']);
  });
});
