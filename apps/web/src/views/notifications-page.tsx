import type { LiveNotification } from '../api/sync-types';
import { run } from '../state/session';
import { viewData } from '../state/store';
import { answerInvitation, invitationIdOf } from './invitation-page';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One line per kind the server sends; an unknown kind still shows, by its name. */
function describe(notification: LiveNotification): string {
  const who = text((notification['from_user'] as { full_name?: string } | undefined)?.full_name) || 'Someone';
  switch (notification.notification_type) {
    case 'share_invitation_sent':
      return `${who} invited you to ${text(notification['project_name'])}`;
    case 'share_invitation_accepted':
      return `${who} joined ${text(notification['project_name'])}`;
    case 'share_invitation_rejected':
      // Someone without an account (declined from the invitation mail) is named by their address.
      return `${who} declined your invitation to ${text(notification['project_name'])}`;
    case 'workspace_invitation_accepted':
      return `${who} joined the workspace ${text(notification['workspace_name'])}`;
    case 'workspace_invitation_rejected':
      // As for a project: someone who declined from the mail, without an account, is named by their address.
      return `${who} declined your invitation to the workspace ${text(notification['workspace_name'])}`;
    case 'item_assigned':
      return `You were assigned “${text(notification['item_content'])}”`;
    case 'item_completed':
      return `“${text(notification['item_content'])}” was completed`;
    case 'note_added':
      return `New comment: ${text(notification['note_content'])}`;
    default:
      return notification.notification_type.replace(/_/g, ' ');
  }
}

/** Where a notification leads: its task, else its project; an invitation, to itself (to answer it). */
function targetOf(notification: LiveNotification): string | null {
  const invitation = notification.notification_type === 'share_invitation_sent' ? invitationIdOf(notification) : undefined;
  if (invitation) return `#/invitation/${encodeURIComponent(invitation)}`;
  const item = text(notification['item_id']) || (typeof notification['item_id'] === 'number' ? String(notification['item_id']) : '');
  if (item) return `#/task/${encodeURIComponent(item)}`;
  const project = text(notification['project_id']) || (typeof notification['project_id'] === 'number' ? String(notification['project_id']) : '');
  if (project && notification.notification_type !== 'share_invitation_sent') return `#/project/${encodeURIComponent(project)}`;
  return null;
}

/** Opening a notification marks it read, as reading it does elsewhere. */
function markRead(notification: LiveNotification): void {
  if (notification.is_unread) run('live_notifications_mark_read', { ids: [notification.id] });
}

export function NotificationsPage() {
  const notifications = [...viewData.value.live_notifications.values()].sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''));
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        Notifications
      </h1>
      <button type="button" onClick={() => run('live_notifications_mark_read_all', {})}>
        Mark all read
      </button>
      {notifications.length === 0 ? <p class="empty">No notifications.</p> : null}
      <ul class="tasks" aria-label="Notifications">
        {notifications.map((notification) => (
          <li key={notification.id} data-testid="notification" class={notification.is_unread ? 'unread' : undefined}>
            {notification.is_unread ? <strong>New: </strong> : null}
            {targetOf(notification) ? (
              <a href={targetOf(notification)!} onClick={() => markRead(notification)}>
                {describe(notification)}
              </a>
            ) : (
              describe(notification)
            )}
            {notification.notification_type === 'share_invitation_sent' && notification['state'] === 'invited' ? (
              <>
                {' '}
                <button type="button" onClick={() => answerInvitation(notification, 'accept')}>
                  Accept invitation
                </button>{' '}
                <button type="button" onClick={() => answerInvitation(notification, 'decline')}>
                  Decline invitation
                </button>
              </>
            ) : null}
            {notification.is_unread ? (
              <>
                {' '}
                <button type="button" onClick={() => markRead(notification)} aria-label={`Mark read: ${describe(notification)}`}>
                  Mark read
                </button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
