import { parseArgs } from '../../command-args';
import { z } from 'zod';
import { DEFAULT_VIEW_SETTINGS } from '@doable/sync-domain';
import { applyViewSettings, mergePatch, viewKeyArgs, viewSettingsArgs } from './view-options-args';

const schema = z.object({ ...viewKeyArgs, ...viewSettingsArgs });
const parse = (args: Record<string, unknown>) => parseArgs(schema, args);

describe('view options arguments', () => {
  it('merges property settings as a JSON merge patch: objects merge, arrays replace, null removes', () => {
    const saved = { order: ['due', 'labels'], properties: { due: { is_hidden: true, width: 120 }, labels: { width: 80 } } };
    expect(mergePatch(saved, { order: ['labels'], properties: { due: { width: null }, labels: null, priority: { is_hidden: false } } })).toEqual({
      order: ['labels'],
      properties: { due: { is_hidden: true }, priority: { is_hidden: false } },
    });
    expect(mergePatch(saved, null)).toBeNull();
  });

  it('replaces the settings given, keeps the others, and starts an unset view from the defaults', () => {
    const first = applyViewSettings(undefined, parse({ view_type: 'TODAY', view_mode: 'BOARD', calendar_settings: { layout: 'WEEK' } }));
    expect(first).toEqual({ ...DEFAULT_VIEW_SETTINGS, view_mode: 'BOARD', calendar_settings: { layout: 'WEEK' } });
    const second = applyViewSettings(first, parse({ view_type: 'TODAY', sorted_by: 'PRIORITY', sort_order: 'DESC', show_completed_tasks: 1, property_settings: { order: ['due'] } }));
    expect(second).toEqual({ ...first, sorted_by: 'PRIORITY', sort_order: 'DESC', show_completed_tasks: true, property_settings: { order: ['due'] } });
    expect(applyViewSettings(second, parse({ view_type: 'TODAY', view_mode: null, calendar_settings: null, property_settings: null }))).toEqual({
      ...second,
      view_mode: null,
      calendar_settings: null,
      property_settings: null,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['view_type', { view_type: 'KANBAN' }],
    ['view_mode', { view_type: 'TODAY', view_mode: 'GRID' }],
    ['grouped_by', { view_type: 'TODAY', grouped_by: 'COLOR' }],
    ['sort_order', { view_type: 'TODAY', sort_order: 'UP' }],
    ['calendar_settings', { view_type: 'TODAY', calendar_settings: { visible_day_count: 5 } }],
    ['property_settings', { view_type: 'TODAY', property_settings: { properties: { due: { width: -1 } } } }],
  ])('refuses a bad %s', (argument, args) => {
    expect(() => parse(args)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT_VALUE', extra: expect.objectContaining({ argument }) }));
  });

  it('requires the view type', () => {
    expect(() => parse({ object_id: '1' })).toThrow(expect.objectContaining({ code: 'ARGUMENT_MISSING', extra: { argument: 'view_type' } }));
  });
});
