import { type Principal, type Scope, SCOPES } from '@doable/contracts-common';
import { commandRefusal, mayRead, mayRunCommand } from '@doable/sync-engine';
import { registeredPolicies } from './registered-handlers';

/** The scope rules as the registered commands declare them (CommandPolicy.scopes, personalTokenArgs). */
const policies = registeredPolicies();
const mayRun = (who: Principal, type: string, args: Record<string, unknown> = {}): boolean => mayRunCommand(who, policies.of(type), args);
const refusal = (type: string, args: Record<string, unknown> = {}) => commandRefusal(type, policies.of(type), args);

const principal = (...scopes: Scope[]): Principal => ({ userId: '1', scopes, appId: '7', tokenKind: 'oauth' });

describe('sync scopes', () => {
  it.each<[string, Scope[], boolean]>([
    ['item_add', ['task:add'], true],
    ['item_add', ['data:read_write'], true],
    ['item_add', ['data:read'], false],
    // Quick add (the internal quick_add command) adds a task: what item_add needs.
    ['quick_add', ['task:add'], true],
    ['quick_add', ['data:read_write'], true],
    ['quick_add', ['data:read'], false],
    ['item_update', ['task:add'], false],
    ['item_update', ['data:read_write'], true],
    ['project_add', ['data:read'], false],
    ['item_delete', ['data:read_write'], false],
    ['item_delete', ['data:delete'], true],
    ['label_delete', ['data:delete'], true],
    ['filter_delete', ['data:read_write'], false],
    ['project_delete', ['data:delete'], false],
    ['project_delete', ['project:delete'], true],
    ['note_delete', ['data:read_write'], true],
    // View options are preferences: writes like any other, their delete included.
    ['view_options_set', ['task:add'], false],
    ['view_options_set', ['data:read_write'], true],
    ['view_options_delete', ['data:read_write'], true],
    ['view_options_delete', ['data:delete'], false],
    ['project_view_options_defaults_set', ['data:read'], false],
    ['project_view_options_defaults_set', ['data:read_write'], true],
    // Deleting a workspace deletes its projects; folders and workspace filters are deletes like labels.
    ['workspace_delete', ['data:delete'], false],
    ['workspace_delete', ['project:delete'], true],
    ['folder_delete', ['data:read_write'], false],
    ['workspace_filter_delete', ['data:delete'], true],
    // A template import adds what an editor adds, with the ordinary write scope.
    ['template_import', ['task:add'], false],
    ['template_import', ['data:read_write'], true],
    // A type no handler declares asks what any write asks (and is refused as unknown later).
    ['no_such_command', ['data:read_write'], true],
    ['no_such_command', ['task:add'], false],
  ])('%s with %j -> %s', (command, scopes, allowed) => {
    expect(mayRun(principal(...scopes), command)).toBe(allowed);
  });

  it.each<[Scope[], boolean]>([
    [['task:add'], false],
    [['data:read'], true],
    [['data:read_write'], true],
    [['data:delete', 'project:delete'], false],
  ])('reading with %j -> %s', (scopes, allowed) => {
    expect(mayRead(principal(...scopes))).toBe(allowed);
  });

  it('lets a token with every scope (a personal token) do anything', () => {
    const all = principal(...SCOPES);
    expect(mayRead(all)).toBe(true);
    for (const command of ['item_add', 'item_delete', 'project_delete', 'label_delete', 'user_update']) expect(mayRun(all, command)).toBe(true);
  });

  it("lets only the account's personal token change its email or password through user_update", () => {
    const app = principal(...SCOPES);
    const personal: Principal = { ...app, appId: null, tokenKind: 'personal' };
    expect(mayRun(app, 'user_update', { full_name: 'Renamed' })).toBe(true);
    expect(mayRun(app, 'user_update', { password: 'a new passphrase' })).toBe(false);
    expect(mayRun(app, 'user_update', { email: 'taken@example.test' })).toBe(false);
    expect(mayRun(personal, 'user_update', { email: 'mine@example.test', password: 'a new passphrase' })).toBe(true);
    expect(refusal('user_update', { password: 'x' })).toMatchObject({ code: 'FORBIDDEN', extra: { argument: 'password' } });
    expect(refusal('item_delete')).toMatchObject({ code: 'FORBIDDEN', extra: { required_scopes: ['data:delete'] } });
  });
});
