import { commandOutcome } from './domain-calls';

describe('commandOutcome: a sync_status value as a tool sees it', () => {
  it('ok, and a per-id map whose every id is ok', () => {
    expect(commandOutcome('ok')).toEqual({ ok: true });
    expect(commandOutcome({ '1': 'ok', '2': 'ok' })).toEqual({ ok: true });
  });

  it('a refusal of the whole command keeps its tag and message', () => {
    expect(commandOutcome({ error_tag: 'FORBIDDEN', error_code: 483, error: 'No', http_code: 403 })).toEqual({ ok: false, tag: 'FORBIDDEN', error: 'No' });
  });

  it('a per-id map reports its first refused id with that id\'s own tag', () => {
    expect(commandOutcome({ '1': 'ok', '2': { error_tag: 'ITEM_NOT_FOUND', error_code: 22, error: 'Item not found' } })).toEqual({
      ok: false,
      tag: 'ITEM_NOT_FOUND',
      error: '2: Item not found',
      extra: { id: '2' },
    });
  });

  it('no status at all (a command the batch never reached) is UNKNOWN', () => {
    expect(commandOutcome(undefined)).toMatchObject({ ok: false, tag: 'UNKNOWN' });
  });
});
