import type { Item, Label, Project } from '@doable/sync-domain';
import { item as fixtureItem } from '../../testing/sync-read.fixture';
import { itemPlaces, projectPlaces, renderItem, renderLabel, renderProject } from './first-generation-render';

const at = new Date('2014-09-26T08:25:05Z');

/** The shared fixture's task, with the ids and instants the help text's examples use. */
function item(overrides: Partial<Item>): Item {
  return fixtureItem('9000000001', { user_id: '2100000001', project_id: '2300000001', content: 'Task1', added_by_uid: '2100000001', added_at: at, updated_at: at, version: '7', ...overrides });
}

const project: Project = {
  id: '2300000001',
  owner_id: '2100000001',
  name: 'Inbox',
  description: '',
  color: 'grey',
  parent_id: null,
  child_order: 0,
  is_collapsed: false,
  is_favorite: false,
  is_archived: false,
  is_deleted: false,
  inbox_project: true,
  view_style: 'list',
  shared: false,
  created_at: at,
  updated_at: at,
  version: '3',
  workspace_id: null,
  folder_id: null,
  is_invite_only: false,
  status: 'IN_PROGRESS',
  visibility: 'team',
  collaborator_role_default: 'READ_WRITE',
  is_link_sharing_enabled: true,
};

describe('first-generation objects (golden shapes)', () => {
  it('renders a task with its flat place, legacy due and 0/1 flags', () => {
    const parent = item({});
    const child = item({ id: '9000000002', parent_id: '9000000001', content: 'Sub', priority: 4, is_collapsed: true, due: { date: '2014-10-08', timezone: null, string: '8 Oct', lang: 'en', is_recurring: false } });
    const places = itemPlaces([parent, child]);
    expect(renderItem(child, places, 'Europe/Athens')).toStrictEqual({
      id: 9000000002,
      user_id: 2100000001,
      project_id: 2300000001,
      content: 'Sub',
      date_string: '8 Oct',
      due_date: 'Wed 08 Oct 2014 20:59:59 +0000',
      priority: 4,
      item_order: 2,
      indent: 2,
      collapsed: 1,
      in_history: 0,
      checked: 0,
      faded: 0,
    });
  });

  it('renders a completed task outside the flat list at its child_order, top level', () => {
    expect(renderItem(item({ checked: true, in_history: true, child_order: 5 }), itemPlaces([]), 'UTC')).toMatchObject({ item_order: 5, indent: 1, checked: 1, in_history: 1, date_string: '', due_date: null });
  });

  it('renders a project with its legacy colour and place', () => {
    expect(renderProject(project, projectPlaces([project]), 3)).toStrictEqual({
      id: 2300000001,
      user_id: 2100000001,
      name: 'Inbox',
      color: 7,
      collapsed: 0,
      item_order: 1,
      indent: 1,
      cache_count: 3,
    });
  });

  it('renders a label with its legacy label colour', () => {
    const label: Label = { id: '2700000001', user_id: '2100000001', name: 'home', color: 'green', item_order: 1, is_favorite: false, is_deleted: false, created_at: at, updated_at: at, version: '1' };
    expect(renderLabel(label)).toStrictEqual({ id: 2700000001, uid: 2100000001, name: 'home', color: 0 });
  });
});
