/**
 * What a collaboration notification says in a mail: a subject and one sentence, from the live
 * notification's type and fields (sync-interface §6). Plain text: the template escapes it for
 * the HTML. A type without a sentence here is not mailed.
 */

interface Person {
  readonly full_name?: unknown;
}

const text = (value: unknown, fallback: string): string => (typeof value === 'string' && value.trim() ? value : fallback);
const nameOf = (person: unknown, fallback = 'Someone'): string => text((person as Person | undefined)?.full_name, fallback);

type Sentence = (data: Readonly<Record<string, unknown>>, actor: string) => { readonly subject: string; readonly summary: string };

const SENTENCES: Readonly<Record<string, Sentence>> = {
  item_assigned: (data, actor) => ({ subject: `Task assigned: ${text(data['item_content'], 'a task')}`, summary: `${actor} assigned the task "${text(data['item_content'], '')}" to you.` }),
  item_completed: (data, actor) => ({ subject: `Task completed: ${text(data['item_content'], 'a task')}`, summary: `${actor} completed the task "${text(data['item_content'], '')}".` }),
  item_uncompleted: (data, actor) => ({ subject: `Task reopened: ${text(data['item_content'], 'a task')}`, summary: `${actor} reopened the task "${text(data['item_content'], '')}".` }),
  note_added: (data, actor) => ({ subject: `New comment from ${actor}`, summary: `${actor} commented: ${text(data['note_content'], '')}` }),
  share_invitation_sent: (data, actor) => ({
    // Anyone may invite any address: the subject carries no text of theirs but their name (the project's name is in the body).
    subject: `${actor} invited you to a project in Doable`,
    summary: `${actor} invited you to work together on the project "${text(data['project_name'], '')}". Accept or decline it from the links below: Doable asks you to confirm, signed in.`,
  }),
  share_invitation_accepted: (data, actor) => ({ subject: `${actor} joined ${text(data['project_name'], 'your project')}`, summary: `${actor} accepted your invitation to "${text(data['project_name'], '')}".` }),
  share_invitation_rejected: (data, actor) => ({ subject: `${actor} declined your invitation`, summary: `${actor} declined your invitation to "${text(data['project_name'], '')}".` }),
  user_left_project: (data, actor) => ({ subject: `${actor} left a shared project`, summary: `${actor} left the project "${text(data['project_name'], '')}".` }),
  user_removed_from_project: (data, actor) => ({ subject: `${text(data['removed_name'], 'A member')} was removed from a project`, summary: `${actor} removed ${text(data['removed_name'], 'a member')} from the project "${text(data['project_name'], '')}".` }),
  workspace_invitation_created: (data, actor) => ({
    subject: `${actor} invited you to a team workspace in Doable`,
    summary: `${actor} invited you to join the workspace "${text(data['workspace_name'], '')}". Open Doable to accept or decline.`,
  }),
  workspace_invitation_accepted: (data, actor) => ({ subject: `${actor} joined ${text(data['workspace_name'], 'your workspace')}`, summary: `${actor} accepted the invitation to "${text(data['workspace_name'], '')}".` }),
  workspace_invitation_rejected: (data, actor) => ({ subject: `${actor} declined an invitation`, summary: `${actor} declined the invitation to "${text(data['workspace_name'], '')}".` }),
  project_archived: (data, actor) => ({ subject: `${actor} archived ${text(data['project_name'], 'a project')}`, summary: `${actor} archived the project "${text(data['project_name'], '')}".` }),
  removed_from_workspace: (data, actor) => ({ subject: `You were removed from ${text(data['workspace_name'], 'a workspace')}`, summary: `${actor} removed you from the workspace "${text(data['workspace_name'], '')}".` }),
  workspace_deleted: (data, actor) => ({ subject: `${actor} deleted ${text(data['workspace_name'], 'a workspace')}`, summary: `${actor} deleted the workspace "${text(data['workspace_name'], '')}".` }),
};

export function isMailableNotification(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(SENTENCES, type);
}

/** The mail's words; `actorName` when the notification's own fields name no one (task and comment kinds carry only ids). */
export function collaborationMailText(type: string, data: Readonly<Record<string, unknown>>, actorName: string): { readonly subject: string; readonly summary: string } | undefined {
  if (!isMailableNotification(type)) return undefined;
  return SENTENCES[type](data, data['from_user'] ? nameOf(data['from_user'], actorName) : actorName);
}

/** An id as the notification carries it (a string, or a number from older producers); undefined when it is neither. */
const idOf = (value: unknown): string | undefined => (typeof value === 'string' && /^[0-9]{1,19}$/.test(value) ? value : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined);

/**
 * The answers a mailed notification offers: for a project invitation, Accept and Decline, each a
 * link into the web app's invitation view (`/app/invitation/<id>/<answer>`), which shows the
 * invitation and asks before it sends accept_invitation or reject_invitation. Not an answer by
 * the link alone: mail scanners and link previews open every link in a mail, and a decline they
 * triggered would end an invitation nobody declined. The link carries no secret: the app answers
 * with the one in the signed-in invitee's own notification, so a forwarded mail answers nothing.
 */
export function collaborationMailActions(type: string, data: Readonly<Record<string, unknown>>, publicUrl: string): ReadonlyArray<{ readonly label: string; readonly href: string }> {
  const invitationId = idOf(data['invitation_id']);
  if (type !== 'share_invitation_sent' || invitationId === undefined) return [];
  const link = (answer: 'accept' | 'decline') => `${publicUrl}/app/invitation/${invitationId}/${answer}`;
  return [
    { label: 'Accept the invitation', href: link('accept') },
    { label: 'Decline the invitation', href: link('decline') },
  ];
}
