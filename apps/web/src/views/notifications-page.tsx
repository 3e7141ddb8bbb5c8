import type { LiveNotification } from '../api/sync-types';
import { run } from '../state/session';
import { viewData } from '../state/store';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One line per kind the server sends; an unknown kind still shows, by its name. */
function describe(notification: LiveNotification): string {
  const who = text((notification['from_user'] as { full_name?: string } | undefined)?.full_name) || 'Someone';
  switch (notification.notification_type) {
    case 'share_invitation_sent':
      return `${who} invited you to ${text(notification['project_name'])}`;
    case 'share_invitation_accepted':
      return `${who} joined ${text(notification['project_name'])}`;
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
            {describe(notification)}
            {notification.notification_type === 'share_invitation_sent' && notification['state'] === 'invited' ? (
              <>
                {' '}
                <button type="button" onClick={() => run('accept_invitation', { invitation_id: notification['invitation_id'], invitation_secret: notification['invitation_secret'] })}>
                  Accept invitation
                </button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
