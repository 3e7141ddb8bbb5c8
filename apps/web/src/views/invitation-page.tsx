import { useEffect, useRef } from 'preact/hooks';
import type { LiveNotification } from '../api/sync-types';
import type { InvitationAnswer } from '../state/routes';
import { run } from '../state/session';
import { serverData, viewData } from '../state/store';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** An invitation notification's invitation id as text (the server sends a string; a number is read too). */
export function invitationIdOf(notification: LiveNotification): string | undefined {
  const id = notification['invitation_id'];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The signed-in person's notification of a project invitation, by the invitation's id. */
export function invitationNotification(notifications: Iterable<LiveNotification>, invitationId: string): LiveNotification | undefined {
  for (const notification of notifications) {
    if (notification.notification_type === 'share_invitation_sent' && !notification.is_deleted && invitationIdOf(notification) === invitationId) return notification;
  }
  return undefined;
}

/** Sends the answer with the secret of the person's own notification (the mail carries none), and marks it read. */
export function answerInvitation(notification: LiveNotification, answer: InvitationAnswer): void {
  run(answer === 'accept' ? 'accept_invitation' : 'reject_invitation', { invitation_id: text(notification['invitation_id']), invitation_secret: text(notification['invitation_secret']) });
  if (notification.is_unread) run('live_notifications_mark_read', { ids: [notification.id] });
}

const SETTLED: Readonly<Record<string, string>> = {
  accepted: 'You accepted this invitation.',
  rejected: 'You declined this invitation.',
};

/**
 * `#/invitation/<id>[/accept|decline]`: where an invitation mail's Accept and Decline lead (and the
 * notification's own link). It shows the invitation and asks; nothing is answered by opening it,
 * since a mail scanner opening every link must not decline for the person. The button the mail
 * named has the focus, so Enter confirms it.
 */
export function InvitationPage({ id, answer }: { id: string; answer?: InvitationAnswer }) {
  const notification = invitationNotification(viewData.value.live_notifications.values(), id);
  const named = useRef<HTMLButtonElement>(null);
  const state = text(notification?.['state']);
  useEffect(() => {
    if (state === 'invited') named.current?.focus();
  }, [state, answer]);
  if (!notification) {
    return (
      <>
        <h1 id="view-title" tabIndex={-1}>
          Invitation
        </h1>
        <p>{serverData.value.user ? 'This invitation was cancelled, or it is for another account: sign in as the person it was sent to.' : 'Loading…'}</p>
      </>
    );
  }
  const project = text(notification['project_name']) || 'a project';
  const who = text((notification['from_user'] as { full_name?: string } | undefined)?.full_name) || 'Someone';
  const projectId = notification['project_id'];
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        Invitation to {project}
      </h1>
      <p>
        {who} invited you to work together on the project “{project}”.
      </p>
      {state === 'invited' ? (
        <div class="project-actions" role="group" aria-labelledby="invitation-question">
          <p id="invitation-question">{answer === 'decline' ? 'Decline this invitation?' : answer === 'accept' ? 'Accept this invitation?' : 'Accept or decline this invitation?'}</p>
          <button type="button" ref={answer === 'accept' ? named : undefined} onClick={() => answerInvitation(notification, 'accept')}>
            Accept invitation
          </button>
          <button type="button" ref={answer === 'decline' ? named : undefined} onClick={() => answerInvitation(notification, 'decline')}>
            Decline invitation
          </button>
        </div>
      ) : (
        <p role="status">
          {SETTLED[state] ?? 'This invitation is no longer open.'}{' '}
          {state === 'accepted' && (typeof projectId === 'string' || typeof projectId === 'number') ? <a href={`#/project/${encodeURIComponent(String(projectId))}`}>Open {project}</a> : null}
        </p>
      )}
    </>
  );
}
