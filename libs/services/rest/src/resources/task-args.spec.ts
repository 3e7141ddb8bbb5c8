import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { asTakenInputs, taskCreateArgs, taskMoveArgs, taskUpdateArgs } from './task-args';

function argumentOf(action: () => unknown): unknown {
  try {
    action();
  } catch (err) {
    if (err instanceof DomainError) return err.extra['argument'];
    throw err;
  }
  return undefined;
}

describe('REST task arguments as sync command arguments', () => {
  it('maps a full REST v2 create onto item_add', () => {
    expect(
      taskCreateArgs(
        {
          content: 'Write',
          description: 'd',
          project_id: '2200000001',
          section_id: '9000000001',
          order: 3,
          labels: ['a'],
          priority: 4,
          due_string: 'morgen',
          due_lang: 'de',
          assignee_id: '1',
          duration: 30,
          duration_unit: 'minute',
          deadline_date: '2031-01-01',
        },
        'rest-v2',
      ),
    ).toEqual({
      project_id: '2200000001',
      section_id: '9000000001',
      child_order: 3,
      content: 'Write',
      description: 'd',
      priority: 4,
      labels: ['a'],
      due: { string: 'morgen', lang: 'de' },
      duration: { amount: 30, unit: 'minute' },
      deadline: { date: '2031-01-01' },
      responsible_uid: '1',
    });
  });

  it('turns due_date and due_datetime into explicit dates, and a null into clearing', () => {
    expect(taskUpdateArgs('1', { due_date: '2030-01-02' }, 'rest-v2')).toEqual({ id: '1', due: { date: '2030-01-02' } });
    expect(taskUpdateArgs('1', { due_datetime: '2030-01-02T10:00:00Z' }, 'rest-v2')).toEqual({ id: '1', due: { datetime: '2030-01-02T10:00:00Z' } });
    expect(taskUpdateArgs('1', { due_string: null }, 'rest-v2')).toEqual({ id: '1', due: null });
    expect(taskUpdateArgs('1', { duration: null, assignee_id: null }, 'rest-v2')).toEqual({ id: '1', duration: null, responsible_uid: null });
  });

  it('refuses two due fields, half a duration, a unit that is not one, and a malformed date', () => {
    expect(argumentOf(() => taskCreateArgs({ content: 'x', due_string: 'today', due_date: '2030-01-01' }, 'rest-v2'))).toBe('due_date');
    expect(argumentOf(() => taskCreateArgs({ content: 'x', duration: 30 }, 'rest-v2'))).toBe('duration_unit');
    expect(argumentOf(() => taskCreateArgs({ content: 'x', duration: 30, duration_unit: 'hour' }, 'rest-v2'))).toBe('duration_unit');
    expect(argumentOf(() => taskCreateArgs({ content: 'x', due_date: '01/02/2030' }, 'rest-v2'))).toBe('due_date');
  });

  it('REST v1 names labels by id and the assignee as `assignee`', () => {
    const names = (ids: readonly string[]) => ids.map((id) => `label-${id}`);
    expect(taskCreateArgs({ content: 'x', label_ids: [5, '6'], assignee: 1 }, 'rest-v1', names)).toEqual({ content: 'x', labels: ['label-5', 'label-6'], responsible_uid: '1' });
    expect(argumentOf(() => taskCreateArgs({ content: 'x', label_ids: 'five' }, 'rest-v1', names))).toBe('label_ids');
  });

  it('moves to exactly one destination', () => {
    expect(taskMoveArgs('1', { section_id: '9' })).toEqual({ id: '1', section_id: '9' });
    expect(argumentOf(() => taskMoveArgs('1', {}))).toBe('project_id');
    expect(argumentOf(() => taskMoveArgs('1', { project_id: '2', parent_id: '3' }))).toBe('parent_id');
  });

  it('passes the fields REST takes as they are under the command’s names, but not on REST v1', () => {
    const inputs = [{ field: 'estimate', key: 'estimate_minutes', schema: z.int().optional() }];
    expect(asTakenInputs({ content: 'x', estimate_minutes: 5 }, 'rest-v2', inputs)).toEqual({ estimate: 5 });
    expect(asTakenInputs({ estimate_minutes: null }, 'rest-api-v1', inputs)).toEqual({ estimate: null });
    expect(asTakenInputs({ content: 'x' }, 'rest-v2', inputs)).toEqual({});
    expect(asTakenInputs({ estimate_minutes: 5 }, 'rest-v1', inputs)).toEqual({});
  });
});
