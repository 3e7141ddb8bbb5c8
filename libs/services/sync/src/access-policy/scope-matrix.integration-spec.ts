import { randomUUID } from 'node:crypto';
import { type Principal, type Scope, SCOPES } from '@doable/contracts-common';
import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import type { ServiceClient } from '@doable/shared-transport';
import { type CommandStatus, isRefusal } from '@doable/sync-engine';
import { WorkspaceHarness, commandHandlers } from '@doable/sync-engine/testing';
import { registeredHandlers, registeredPolicies } from './registered-handlers';

/**
 * The scope matrix against the engine (sync-interface §5.4): every public command, with a token
 * of each scope, is refused FORBIDDEN before it runs exactly when the rule below says so, naming
 * the scopes it needs; and the commands that had rows in the end-to-end matrix run for real with
 * the scopes that allow them. The edges' own checks (reads, uploads, the first generation, MCP,
 * REST) and a sample of commands per sync path stay in e2e/scopes.e2e-spec.ts.
 *
 * The rule, written here from the spec rather than read from the declarations, so a command
 * declared with the wrong scopes fails: adding a task needs task:add or data:read_write;
 * deleting tasks, labels (and their occurrences), filters, folders and workspace filters
 * data:delete; deleting a project or a workspace (which deletes its projects) project:delete;
 * every other command data:read_write.
 */
const NEEDS: Readonly<Record<string, readonly Scope[]>> = {
  item_add: ['task:add', 'data:read_write'],
  item_add_flat: ['task:add', 'data:read_write'],
  item_delete: ['data:delete'],
  label_delete: ['data:delete'],
  label_delete_occurrences: ['data:delete'],
  filter_delete: ['data:delete'],
  folder_delete: ['data:delete'],
  workspace_filter_delete: ['data:delete'],
  project_delete: ['project:delete'],
  workspace_delete: ['project:delete'],
};
const needs = (type: string): readonly Scope[] => NEEDS[type] ?? ['data:read_write'];

const OWNER = '9901';
const INVITEE = '9902';
const USERS = { [OWNER]: 'scopes-owner@example.test', [INVITEE]: 'scopes-invitee@example.test' };

/** The other services stand here for what user_update and the notification commands ask them; a scope refusal comes before any such call. */
const otherServices = { request: () => Promise.reject(new DomainError('SERVICE_UNAVAILABLE', 'no other service in this spec')) } as unknown as ServiceClient;

const PERSONAL = 'personal token';
type Grant = readonly Scope[] | typeof PERSONAL;
/** One scope at a time, then the personal token (every scope). */
const GRANTS: readonly Grant[] = [...SCOPES.map((scope) => [scope]), PERSONAL];

/** Every type a client may send (a declared variant included), as the service registers them; not the internal quick_add and template_import. */
const internalTypes = new Set(registeredHandlers().internal.map((handler) => handler.type));
const PUBLIC_TYPES = registeredPolicies()
  .declared()
  .map(({ type }) => type)
  .filter((type) => !internalTypes.has(type));

describe('the scope matrix in the command executor (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();

  beforeAll(async () => {
    // The service's own public commands (COMMAND_PROVIDERS), built by Nest's injector.
    await harness.start('scope_matrix', USERS, () => commandHandlers({ services: otherServices }));
  });
  afterAll(() => harness.stop());

  const principalOf = (grant: Grant): Principal =>
    grant === PERSONAL ? harness.principal(OWNER) : { userId: OWNER, scopes: [...grant], appId: '7', tokenKind: 'oauth' };
  const runAs = async (grant: Grant, type: string, args: Record<string, unknown>): Promise<CommandStatus> => {
    const uuid = randomUUID();
    try {
      const results = await harness.executor.run(principalOf(grant), [{ type, uuid, args }]);
      return results.syncStatus[uuid];
    } catch (err) {
      // A command that got as far as asking another service (none here) fails the request as
      // every outage does; that is no scope refusal, so it counts as the command's answer.
      if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE') return { ...todoistErrorBody(err) };
      throw err;
    }
  };
  /** The scopes a scope refusal names; undefined for anything else (ok, or another refusal). */
  const scopesAsked = (status: CommandStatus): unknown => (isRefusal(status) && status.error_tag === 'FORBIDDEN' ? status.error_extra?.['required_scopes'] : undefined);
  const scopeRefusal = (type: string) => ({ error_tag: 'FORBIDDEN', http_code: 403, error_extra: { required_scopes: needs(type) } });

  it('builds its executor from every public command the service registers', () => {
    expect([...harness.executor.policies.declared().map(({ type }) => type)].sort()).toEqual([...PUBLIC_TYPES].sort());
    // Every command the rule names is one the service has (a renamed command cannot leave a stale row).
    for (const type of Object.keys(NEEDS)) expect(PUBLIC_TYPES).toContain(type);
  });

  describe.each(GRANTS.map((grant) => [grant === PERSONAL ? PERSONAL : grant.join(' '), grant] as const))('with %s', (_name, grant) => {
    it.each(PUBLIC_TYPES)('%s is refused before it runs exactly when the scope does not allow it', async (type) => {
      const allowed = grant === PERSONAL || needs(type).some((scope) => grant.includes(scope));
      // Empty arguments: an allowed command goes on to refuse them (or ask another service); a
      // refused one never gets that far.
      const status = await runAs(grant, type, {});
      if (allowed) expect(scopesAsked(status)).toBeUndefined();
      else expect(status).toMatchObject(scopeRefusal(type));
    });
  });

  describe('the commands run for real with the scopes that allow them', () => {
    const personal = (type: string, args: Record<string, unknown>) => harness.create(OWNER, type, args);
    const newTask = () => personal('item_add', { content: 'fixture' });
    const newProject = () => personal('project_add', { name: 'fixture' });
    const newWorkspace = () => personal('workspace_add', { name: `fixture-${randomUUID()}` });
    let counter = 0;

    /** What each row runs, its fixtures made first with the personal token. */
    const ACTIONS: Record<string, () => Promise<[string, Record<string, unknown>]>> = {
      item_update: async () => ['item_update', { id: await newTask(), content: 'changed' }],
      project_add: () => Promise.resolve(['project_add', { name: 'scoped' }]),
      label_delete: async () => ['label_delete', { id: await personal('label_add', { name: `fixture-${++counter}` }) }],
      label_delete_occurrences: async () => {
        const label = `occurring-${++counter}`;
        await personal('item_add', { content: 'labelled', labels: [label] });
        return ['label_delete_occurrences', { name: label }];
      },
      filter_add: () => Promise.resolve(['filter_add', { name: `scoped-${++counter}`, query: 'today' }]),
      filter_delete: async () => ['filter_delete', { id: await personal('filter_add', { name: `fixture-${++counter}`, query: 'today' }) }],
      note_add: async () => ['note_add', { item_id: await newTask(), content: 'scoped note' }],
      reminder_add: async () => ['reminder_add', { item_id: await newTask(), type: 'absolute', due: { date: '2030-04-30T18:00:00' } }],
      section_add: async () => ['section_add', { name: 'scoped section', project_id: await newProject() }],
      share_project: async () => ['share_project', { project_id: await newProject(), email: USERS[INVITEE] }],
      delete_invitation: async () => {
        const projectId = await newProject();
        expect(await harness.status(OWNER, 'share_project', { project_id: projectId, email: USERS[INVITEE] })).toBe('ok');
        const [invitation] = await harness.dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.project_invitations WHERE project_id = $1`, [projectId]);
        return ['delete_invitation', { invitation_id: invitation.id }];
      },
      workspace_add: () => Promise.resolve(['workspace_add', { name: `scoped-${++counter}` }]),
      workspace_delete: async () => ['workspace_delete', { id: await newWorkspace() }],
      folder_delete: async () => ['folder_delete', { id: await personal('folder_add', { workspace_id: await newWorkspace(), name: 'fixture' }) }],
      workspace_filter_delete: async () => [
        'workspace_filter_delete',
        { id: await personal('workspace_filter_add', { workspace_id: await newWorkspace(), name: 'fixture', query: 'today' }) },
      ],
    };

    it.each<[string, Scope[], boolean]>([
      ['item_update', ['task:add'], false],
      ['item_update', ['data:read'], false],
      ['item_update', ['data:read_write'], true],
      ['project_add', ['task:add'], false],
      ['project_add', ['data:read_write'], true],
      ['label_delete', ['data:read_write'], false],
      ['label_delete', ['data:delete'], true],
      ['label_delete_occurrences', ['data:read_write'], false],
      ['label_delete_occurrences', ['data:delete'], true],
      ['filter_add', ['data:read'], false],
      ['filter_add', ['data:read_write'], true],
      ['filter_delete', ['data:read_write'], false],
      ['filter_delete', ['data:delete'], true],
      ['note_add', ['task:add'], false],
      ['note_add', ['data:read_write'], true],
      ['reminder_add', ['data:read'], false],
      ['reminder_add', ['data:read_write'], true],
      ['section_add', ['task:add'], false],
      ['section_add', ['data:read_write'], true],
      // Sharing is a write like any other: data:read_write.
      ['share_project', ['data:read'], false],
      ['share_project', ['task:add'], false],
      ['share_project', ['data:read_write'], true],
      ['delete_invitation', ['data:read'], false],
      ['delete_invitation', ['data:read_write'], true],
      // Workspaces: writes need data:read_write; deleting one deletes its projects (project:delete),
      // deleting a folder or a workspace filter is a deletion like a filter's (data:delete).
      ['workspace_add', ['task:add'], false],
      ['workspace_add', ['data:read'], false],
      ['workspace_add', ['data:read_write'], true],
      ['workspace_delete', ['data:read_write', 'data:delete'], false],
      ['workspace_delete', ['project:delete'], true],
      ['folder_delete', ['data:read_write'], false],
      ['folder_delete', ['data:delete'], true],
      ['workspace_filter_delete', ['data:read_write'], false],
      ['workspace_filter_delete', ['data:delete'], true],
    ])('%s with %j -> allowed: %s', async (action, scopes, allowed) => {
      const [type, args] = await ACTIONS[action]();
      const status = await runAs(scopes, type, args);
      if (allowed) expect(status).toBe('ok');
      else expect(status).toMatchObject(scopeRefusal(type));
    });

    it('does not remember a refused command: the same uuid runs with a token that may', async () => {
      const command = { type: 'project_add', uuid: randomUUID(), args: { name: 'Allowed later' } };
      const refused = await harness.executor.run(principalOf(['data:read']), [command]);
      expect(refused.syncStatus[command.uuid]).toMatchObject(scopeRefusal('project_add'));
      const allowed = await harness.executor.run(principalOf(PERSONAL), [command]);
      expect(allowed.syncStatus[command.uuid]).toBe('ok');
    });

    it("refuses a change of email or password to any token but the account's own personal one, whatever its scopes", async () => {
      const everyScope: Principal = { userId: OWNER, scopes: [...SCOPES], appId: '7', tokenKind: 'oauth' };
      const uuid = randomUUID();
      const results = await harness.executor.run(everyScope, [{ type: 'user_update', uuid, args: { password: 'an app-chosen passphrase', email: 'taken-over@example.test' } }]);
      expect(results.syncStatus[uuid]).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403, error_extra: { argument: 'password' } });
    });
  });
});
