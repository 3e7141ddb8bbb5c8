import { ToolFailure } from '../calls/tool-failure';
import { matchWorkspace } from './workspace-match';

describe('naming a workspace', () => {
  const workspaces = [
    { id: '11', name: 'Acme' },
    { id: '12', name: 'Acme Labs' },
    { id: '13', name: 'Home' },
  ];

  it('takes the id, then the exact name in any case, then a unique part of a name', () => {
    expect(matchWorkspace(workspaces, '12').id).toBe('12');
    expect(matchWorkspace(workspaces, 'acme').id).toBe('11');
    expect(matchWorkspace(workspaces, 'labs').id).toBe('12');
    expect(matchWorkspace(workspaces, 'HOM').id).toBe('13');
  });

  it('refuses an ambiguous part and an unknown name with the choices', () => {
    expect(() => matchWorkspace(workspaces, 'm')).toThrow(new ToolFailure('INVALID_ARGUMENT_VALUE', 'Several workspaces match "m": Acme (11), Acme Labs (12), Home (13)'));
    try {
      matchWorkspace(workspaces, 'Globex');
      throw new Error('not refused');
    } catch (err) {
      expect(err).toMatchObject({ tag: 'WORKSPACE_NOT_FOUND', message: 'No workspace matches "Globex"; yours: Acme (11), Acme Labs (12), Home (13)' });
    }
  });
});
