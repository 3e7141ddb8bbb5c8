import { read, renderedProjects } from '../../testing/sync-read.fixture';
import { syncV9Dialect } from './sync-v9.dialect';

describe('sync-v9 projects', () => {
  const rows = renderedProjects(syncV9Dialect.render({ read: read(['projects']), tempIdMapping: {} }));

  it('uses collapsed, not is_collapsed', () => {
    expect(rows.map((row) => row['collapsed'])).toEqual([false, true]);
    rows.forEach((row) => expect(row).not.toHaveProperty('is_collapsed'));
  });

  it('writes the v9 fields without timestamps', () => {
    expect(rows[1]).toEqual({
      id: '2203306141',
      name: 'Errands',
      color: 'berry_red',
      parent_id: null,
      child_order: 1,
      collapsed: true,
      shared: false,
      sync_id: null,
      is_favorite: false,
      is_archived: false,
      is_deleted: false,
      view_style: 'list',
    });
  });
});

describe('sync-v9 places', () => {
  it('writes a recent place as an array', () => {
    expect(syncV9Dialect.writers.location({ name: 'Home', loc_lat: '52.52', loc_long: '13.40' })).toEqual(['Home', '52.52', '13.40']);
  });
});
