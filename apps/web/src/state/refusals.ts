import type { SyncError } from '../api/sync-types';

/** What a command was meant to do, in words (`project_delete` → "delete the project"). */
const ACTIONS: Record<string, string> = {
  item_add: 'add the task',
  item_update: 'change the task',
  item_complete: 'complete the task',
  item_uncomplete: 'reopen the task',
  item_delete: 'delete the task',
  item_move: 'move the task',
  project_update: 'change the project',
  project_delete: 'delete the project',
  project_archive: 'archive the project',
  project_leave: 'leave the project',
  section_add: 'add the section',
  section_update: 'rename the section',
  section_delete: 'delete the section',
  section_archive: 'archive the section',
  label_update: 'change the label',
  label_delete: 'delete the label',
  filter_add: 'add the filter',
  filter_update: 'change the filter',
  share_project: 'invite to the project',
  delete_collaborator: 'cancel the invitation',
  reject_invitation: 'decline the invitation',
  accept_invitation: 'accept the invitation',
};

/** The server's own reason, as a sentence (capital first, a full stop), or null when it gave none. */
function reason(error: string | undefined): string | null {
  const text = error?.trim();
  if (!text) return null;
  // A bare tag (`FORBIDDEN`, `ITEM_NOT_FOUND`) is no sentence: leave it for the generic words.
  if (/^[A-Z_]+$/.test(text)) return null;
  const sentence = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * A refused command as a person reads it: what could not be done and why, in a sentence — never
 * a bare error tag. A refusal for lack of rights says so in those words.
 */
export function refusalSentence(type: string, status: SyncError): string {
  const action = ACTIONS[type] ?? type.replace(/_/g, ' ');
  const why = reason(status.error);
  const forbidden = status.http_code === 403 || status.error_tag === 'FORBIDDEN' || /forbidden/i.test(status.error_tag ?? '');
  if (forbidden) return `You may not ${action} here: your role does not allow it.${why ? ` ${why}` : ''}`;
  return `Could not ${action}.${why ? ` ${why}` : ''} Showing what the server kept.`;
}

/** A failed request (a filter's query, a task) in a sentence: the server's reason when it gave one. */
export function refusalText(err: unknown): string {
  // A RequestRefusedError (api/http.ts), read by its shape: that module needs the browser's storage.
  if (err instanceof Error && 'status' in err && 'body' in err) {
    const body = err.body as { error?: string } | null;
    return reason(body?.error) ?? `The server refused this (${String(err.status)}).`;
  }
  return 'Could not load this. It needs a connection.';
}
