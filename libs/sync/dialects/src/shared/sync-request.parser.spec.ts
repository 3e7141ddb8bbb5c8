import { DomainError } from '@doable/shared-errors';
import { MAX_COMMANDS_PER_REQUEST } from '@doable/sync-engine';
import { parseSyncRequest } from './sync-request.parser';

function parseError(body: unknown): DomainError {
  try {
    parseSyncRequest(body);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected parseSyncRequest to throw');
}

const command = (uuid: string, extra: Record<string, unknown> = {}) => ({ type: 'project_add', uuid, args: { name: `p-${uuid}` }, ...extra });

describe('parseSyncRequest', () => {
  describe('JSON bodies', () => {
    it('reads a read-only request', () => {
      expect(parseSyncRequest({ sync_token: '*', resource_types: ['projects', 'user'] })).toEqual({
        syncToken: '*',
        resourceTypes: ['projects', 'user'],
        commands: [],
      });
    });

    it('reads commands with temp ids next to a read', () => {
      const body = { sync_token: 'abc', resource_types: ['all'], commands: [command('u1', { temp_id: 't1' }), command('u2')] };
      expect(parseSyncRequest(body)).toEqual({
        syncToken: 'abc',
        resourceTypes: ['all'],
        commands: [
          { type: 'project_add', uuid: 'u1', args: { name: 'p-u1' }, temp_id: 't1' },
          { type: 'project_add', uuid: 'u2', args: { name: 'p-u2' } },
        ],
      });
    });

    it('answers a write-only request (commands, no token) with a null sync token and no types', () => {
      expect(parseSyncRequest({ commands: [command('u1')] })).toEqual({
        syncToken: null,
        resourceTypes: [],
        commands: [{ type: 'project_add', uuid: 'u1', args: { name: 'p-u1' } }],
      });
    });

    it('reads the named types in full when a write names resource_types but no token (the SDKs\' moveTasks)', () => {
      expect(parseSyncRequest({ commands: [command('u1')], resource_types: ['items'] })).toMatchObject({ syncToken: '*', resourceTypes: ['items'] });
      expect(parseError({ commands: [command('u1')], resource_types: 'not json' })).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'resource_types' } });
    });

    it.each([null, undefined])('tolerates temp_id %s and leaves the key out', (tempId) => {
      const [parsed] = parseSyncRequest({ commands: [command('u1', { temp_id: tempId })] }).commands;
      expect(parsed).toEqual({ type: 'project_add', uuid: 'u1', args: { name: 'p-u1' } });
      expect(Object.keys(parsed)).not.toContain('temp_id');
    });

    it("reads todoist@1.1.0's collaborator_<command> names as the sharing commands, and nothing else", () => {
      const commands = ['collaborator_share_project', 'collaborator_accept_invitation', 'collaborator_delete_collaborator', 'collaborator_update', 'share_project'].map((type, index) => ({ type, uuid: `u${index}` }));
      expect(parseSyncRequest({ commands }).commands.map((parsed) => parsed.type)).toEqual(['share_project', 'accept_invitation', 'delete_collaborator', 'collaborator_update', 'share_project']);
    });

    it('defaults missing args to an empty object', () => {
      const [parsed] = parseSyncRequest({ commands: [{ type: 'project_add', uuid: 'u1' }] }).commands;
      expect(parsed.args).toEqual({});
    });
  });

  describe('form bodies (arrays as JSON strings)', () => {
    it('parses commands and resource_types from JSON strings', () => {
      const body = {
        sync_token: '*',
        resource_types: '["projects","user"]',
        commands: JSON.stringify([command('u1', { temp_id: 't1' })]),
      };
      expect(parseSyncRequest(body)).toEqual({
        syncToken: '*',
        resourceTypes: ['projects', 'user'],
        commands: [{ type: 'project_add', uuid: 'u1', args: { name: 'p-u1' }, temp_id: 't1' }],
      });
    });

    it('reads a form write-only request', () => {
      expect(parseSyncRequest({ commands: JSON.stringify([command('u1')]) })).toMatchObject({ syncToken: null, resourceTypes: [] });
    });

    it.each([
      ['commands', { sync_token: '*', resource_types: '["all"]', commands: '[{"type":' }],
      ['resource_types', { sync_token: '*', resource_types: '[all]' }],
    ])('answers malformed JSON in %s with INVALID_ARGUMENT_VALUE naming it', (argument, body) => {
      const err = parseError(body);
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument });
      expect(err.message).toContain(argument);
    });
  });

  describe('commands', () => {
    it(`accepts ${MAX_COMMANDS_PER_REQUEST} commands`, () => {
      const commands = Array.from({ length: MAX_COMMANDS_PER_REQUEST }, (_, index) => command(`u${index}`));
      expect(parseSyncRequest({ commands }).commands).toHaveLength(MAX_COMMANDS_PER_REQUEST);
    });

    it.each([
      ['JSON', (commands: unknown[]) => commands],
      ['form', (commands: unknown[]) => JSON.stringify(commands)],
    ])(`answers more than ${MAX_COMMANDS_PER_REQUEST} commands (%s) with TOO_MANY_COMMANDS`, (_label, encode) => {
      const commands = Array.from({ length: MAX_COMMANDS_PER_REQUEST + 1 }, (_, index) => command(`u${index}`));
      const err = parseError({ commands: encode(commands) });
      expect(err.code).toBe('TOO_MANY_COMMANDS');
      expect(err.extra).toEqual({ argument: 'commands', max_count: MAX_COMMANDS_PER_REQUEST });
    });

    it('rejects duplicate uuids within a request', () => {
      const err = parseError({ commands: [command('same'), command('other'), command('same')] });
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument: 'commands' });
      expect(err.message).toMatch(/unique/);
    });

    it.each([
      ['uuid', { type: 'project_add', args: {} }, 'commands[0].uuid'],
      ['type', { uuid: 'u1', args: {} }, 'commands[0].type'],
      ['an empty uuid', { type: 'project_add', uuid: '', args: {} }, 'commands[0].uuid'],
      ['a numeric uuid', { type: 'project_add', uuid: 1, args: {} }, 'commands[0].uuid'],
      ['args that are not an object', { type: 'project_add', uuid: 'u1', args: 'x' }, 'commands[0].args'],
      ['an empty temp_id', { type: 'project_add', uuid: 'u1', temp_id: '' }, 'commands[0].temp_id'],
      ['a command that is not an object', 'project_add', 'commands[0]'],
    ])('rejects a command with missing or bad %s, naming its position', (_label, raw, where) => {
      const err = parseError({ commands: [raw] });
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument: 'commands' });
      expect(err.message.startsWith(where)).toBe(true);
    });

    it('names the position of the first bad command', () => {
      const err = parseError({ commands: [command('u1'), { type: 'project_add' }] });
      expect(err.message.startsWith('commands[1].uuid')).toBe(true);
    });

    it.each([
      ['an object', { type: 'project_add', uuid: 'u1' }],
      ['a string that is JSON but not an array', '{"type":"project_add"}'],
      ['a number', 3],
    ])('rejects commands given as %s', (_label, commands) => {
      const err = parseError({ sync_token: '*', resource_types: ['all'], commands });
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument: 'commands' });
    });
  });

  describe('required arguments', () => {
    it.each([
      ['an empty body', {}],
      ['an empty commands array', { commands: [] }],
      ['an empty form commands array', { commands: '[]' }],
      ['resource_types alone', { resource_types: ['all'] }],
      ['a null body', null],
      ['an array body', [command('u1')]],
      ['a string body', 'sync_token=*'],
    ])('answers %s without sync_token with ARGUMENT_MISSING sync_token', (_label, body) => {
      const err = parseError(body);
      expect(err.code).toBe('ARGUMENT_MISSING');
      expect(err.extra).toEqual({ argument: 'sync_token' });
    });

    it.each([
      ['without commands', { sync_token: '*' }],
      ['with commands', { sync_token: '*', commands: [command('u1')] }],
    ])('answers sync_token without resource_types (%s) with ARGUMENT_MISSING resource_types', (_label, body) => {
      const err = parseError(body);
      expect(err.code).toBe('ARGUMENT_MISSING');
      expect(err.extra).toEqual({ argument: 'resource_types' });
    });

    it.each([
      ['an empty string', ''],
      ['a number', 5],
      ['null', null],
      ['an array', ['*']],
    ])('rejects a sync_token that is %s', (_label, syncToken) => {
      const err = parseError({ sync_token: syncToken, resource_types: ['all'] });
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument: 'sync_token' });
    });

    it.each([
      ['a string', { sync_token: '*', resource_types: '"all"' }],
      ['an array with a number', { sync_token: '*', resource_types: ['all', 1] }],
      ['an object', { sync_token: '*', resource_types: { all: true } }],
    ])('rejects resource_types that is %s', (_label, body) => {
      const err = parseError(body);
      expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
      expect(err.extra).toEqual({ argument: 'resource_types' });
    });
  });
});
