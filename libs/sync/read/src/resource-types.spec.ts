import { DomainError } from '@doable/shared-errors';
import { RESOURCE_TYPES, type ResourceType, selectResourceTypes } from './resource-types';

function selectError(requested: string[]): DomainError {
  try {
    selectResourceTypes(requested, false);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected selectResourceTypes to throw');
}

const sorted = (types: Iterable<ResourceType>) => [...types].sort();

describe('selectResourceTypes', () => {
  it('selects every type but reminders_location and workspace_users for `all` on a full sync', () => {
    const expected = RESOURCE_TYPES.filter((type) => type !== 'reminders_location' && type !== 'workspace_users');
    expect(sorted(selectResourceTypes(['all'], true))).toEqual([...expected].sort());
  });

  it('keeps workspace_users in `all` on an incremental sync', () => {
    const expected = RESOURCE_TYPES.filter((type) => type !== 'reminders_location');
    expect(sorted(selectResourceTypes(['all'], false))).toEqual([...expected].sort());
  });

  it('selects only the named types', () => {
    expect(sorted(selectResourceTypes(['projects', 'user', 'items'], true))).toEqual(['items', 'projects', 'user']);
  });

  it('selects nothing for an empty list', () => {
    expect(selectResourceTypes([], true).size).toBe(0);
  });

  it.each([true, false])('selects reminders_location when named (fullSync=%s)', (fullSync) => {
    expect(sorted(selectResourceTypes(['reminders_location'], fullSync))).toEqual(['reminders_location']);
    expect(selectResourceTypes(['all', 'reminders_location'], fullSync).has('reminders_location')).toBe(true);
  });

  it('drops workspace_users named on a full sync', () => {
    expect(sorted(selectResourceTypes(['workspace_users', 'projects'], true))).toEqual(['projects']);
  });

  it('keeps workspace_users named on an incremental sync', () => {
    expect(sorted(selectResourceTypes(['workspace_users', 'projects'], false))).toEqual(['projects', 'workspace_users']);
  });

  it.each([
    ['after all', ['all', '-projects', '-items']],
    ['before all', ['-projects', '-items', 'all']],
    ['between', ['-projects', 'all', '-items']],
  ])('applies -name exclusions last (%s)', (_label, requested) => {
    const selected = selectResourceTypes(requested, true);
    expect(selected.has('projects')).toBe(false);
    expect(selected.has('items')).toBe(false);
    expect(selected.has('labels')).toBe(true);
    expect(selected.size).toBe(RESOURCE_TYPES.length - 4);
  });

  it('lets an exclusion win over an explicit name', () => {
    expect(sorted(selectResourceTypes(['projects', '-projects', 'user'], true))).toEqual(['user']);
  });

  it.each(['unknown', 'Projects', 'item', ''])('rejects %j as INVALID_ARGUMENT_VALUE naming resource_types', (name) => {
    const err = selectError(['projects', name]);
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra).toEqual({ argument: 'resource_types' });
    expect(err.message).toBe(`Unknown resource type: ${name}`);
  });
});
