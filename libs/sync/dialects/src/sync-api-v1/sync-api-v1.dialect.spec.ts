import { read, renderedProjects } from '../../testing/sync-read.fixture';
import { syncApiV1Dialect } from './sync-api-v1.dialect';

describe('sync-api-v1 projects', () => {
  const rows = renderedProjects(syncApiV1Dialect.render({ read: read(['projects']), tempIdMapping: {} }));

  it('uses is_collapsed, not collapsed', () => {
    expect(rows.map((row) => row['is_collapsed'])).toEqual([false, true]);
    rows.forEach((row) => expect(row).not.toHaveProperty('collapsed'));
  });

  it('never carries a workspace_id key', () => {
    expect(rows).toHaveLength(2);
    rows.forEach((row) => expect(Object.keys(row)).not.toContain('workspace_id'));
  });

  it('writes the personal project fields with string ids and wire timestamps', () => {
    expect(rows[1]).toEqual({
      id: '2203306141',
      name: 'Errands',
      description: 'things to do',
      color: 'berry_red',
      parent_id: null,
      child_order: 1,
      default_order: 0,
      is_collapsed: true,
      is_favorite: false,
      is_archived: false,
      is_deleted: false,
      is_frozen: false,
      is_shared: false,
      can_assign_tasks: false,
      view_style: 'list',
      created_at: '2024-01-02T03:04:05.678000Z',
      updated_at: '2024-02-03T04:05:06.789000Z',
    });
  });
});

describe('sync-api-v1 places', () => {
  it('writes a recent place as an object (the v1 SDKs reject an array entry)', () => {
    expect(syncApiV1Dialect.writers.location({ name: 'Home', loc_lat: '52.52', loc_long: '13.40' })).toEqual({ name: 'Home', loc_lat: '52.52', loc_long: '13.40' });
  });
});
