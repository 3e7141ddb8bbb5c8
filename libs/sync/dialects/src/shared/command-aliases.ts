/**
 * Command names some clients send for the public service's commands. `todoist@1.1.0` builds
 * every command's type as `<resource>_<action>`, and files its sharing helpers under the
 * resource `collaborator`: `sharing.shareProject` sends `collaborator_share_project`. The
 * public service's names are taken as they are; these are read as them, so that client's
 * sharing works unmodified and no other client is affected (no real command has these names).
 */
const COMMAND_ALIASES: Readonly<Record<string, string>> = {
  collaborator_share_project: 'share_project',
  collaborator_delete_collaborator: 'delete_collaborator',
  collaborator_accept_invitation: 'accept_invitation',
  collaborator_reject_invitation: 'reject_invitation',
  collaborator_delete_invitation: 'delete_invitation',
};

/** The command type a client meant. */
export function canonicalCommandType(type: string): string {
  return Object.hasOwn(COMMAND_ALIASES, type) ? COMMAND_ALIASES[type] : type;
}
