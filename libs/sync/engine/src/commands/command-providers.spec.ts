import { LIVE_NOTIFICATION_COMMANDS } from '@doable/contracts-notifications';
import { commandHandlers } from '../../testing/command-handlers.harness';
import { PUBLIC_COMMANDS } from './index';

describe('the public commands as providers', () => {
  it('Nest builds every one from the module’s providers, in the registry’s order, each type once', async () => {
    const handlers = await commandHandlers();
    expect(handlers.map((handler) => handler.constructor)).toEqual(PUBLIC_COMMANDS);
    const types = handlers.map((handler) => handler.type);
    expect(new Set(types).size).toBe(types.length);
    expect(types).toEqual(expect.arrayContaining([...LIVE_NOTIFICATION_COMMANDS, 'note_reaction_add', 'note_reaction_remove', 'item_add', 'share_project', 'workspace_invite']));
  });

  it('a command gets the repositories it declares, not undefined (design-time types reach the injector)', async () => {
    const handlers = await commandHandlers();
    const missing = handlers.flatMap((handler) => Object.entries(handler).filter(([, value]) => value === undefined).map(([key]) => `${handler.type}.${key}`));
    expect(missing).toEqual([]);
  });
});
