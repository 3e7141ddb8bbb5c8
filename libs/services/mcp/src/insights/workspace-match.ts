import { ToolFailure } from '../calls/tool-failure';

export interface NamedWorkspace {
  readonly id: string;
  readonly name: string;
}

/**
 * The workspace a user named: its exact id, else its exact name (any case), else the one
 * workspace whose name contains the text. None, or several candidates, is a coded refusal that
 * lists what there is to choose from.
 */
export function matchWorkspace(workspaces: readonly NamedWorkspace[], idOrName: string): NamedWorkspace {
  const wanted = idOrName.trim().toLowerCase();
  const byId = workspaces.find((workspace) => workspace.id === idOrName.trim());
  if (byId) return byId;
  const exact = workspaces.filter((workspace) => workspace.name.toLowerCase() === wanted);
  if (exact.length === 1) return exact[0];
  const partial = exact.length > 1 ? exact : workspaces.filter((workspace) => workspace.name.toLowerCase().includes(wanted));
  if (partial.length === 1) return partial[0];
  const choices = (partial.length > 1 ? partial : workspaces).map((workspace) => `${workspace.name} (${workspace.id})`).join(', ');
  if (partial.length > 1) throw new ToolFailure('INVALID_ARGUMENT_VALUE', `Several workspaces match "${idOrName}": ${choices}`, { argument: 'workspaceIdOrName' });
  throw new ToolFailure('WORKSPACE_NOT_FOUND', `No workspace matches "${idOrName}"${choices ? `; yours: ${choices}` : ''}`, { argument: 'workspaceIdOrName' });
}
