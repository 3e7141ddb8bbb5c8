import { useState } from 'preact/hooks';
import type { Project, ProjectInvitation } from '../api/sync-types';
import { type InvitationRights, pendingInvitations } from '../state/invitations';
import { projectInvitations } from '../state/rest-calls';
import { run } from '../state/session';
import { viewData } from '../state/store';
import { projectPeople } from '../state/task-selectors';
import { useServerQuery } from './server-query';

/**
 * Who is on the project, who is invited and has not answered (addresses with no account too,
 * from the server's list of open invitations, read again after every sync), and an invitation by
 * e-mail (share_project; they accept from their notifications or their mail).
 */
export function ShareProject({ project, rights }: { project: Project; rights: InvitationRights }) {
  const canShare = rights.share;
  const [email, setEmail] = useState('');
  const people = projectPeople(viewData.value, project.id);
  // Only those who may invite are answered the list; the others see the synced invitations alone.
  const { result: listed } = useServerQuery<ProjectInvitation[] | undefined>(
    () => (canShare ? projectInvitations(project.id) : Promise.resolve(undefined)),
    `invitations:${project.id}:${String(canShare)}`,
  );
  const invited = pendingInvitations(viewData.value, project.id, listed, rights);
  const submit = (event: Event) => {
    event.preventDefault();
    if (!email.trim()) return;
    run('share_project', { project_id: project.id, email: email.trim() });
    setEmail('');
  };
  return (
    <details class="share">
      <summary>Sharing{people.length > 0 ? ` (${people.length} people)` : ''}</summary>
      {people.length > 0 ? (
        <ul aria-label={`People on ${project.name}`}>
          {people.map((person) => (
            <li key={person.id}>
              {person.full_name} {person.email ? <span class="due">{person.email}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {invited.length > 0 ? (
        <>
          <h3 class="small-heading">Invited, not yet answered</h3>
          <ul aria-label={`Pending invitations to ${project.name}`}>
            {invited.map(({ key, name, email, cancel }) => (
              <li key={key} data-testid="pending-invitation">
                {name ?? email} {email && name ? <span class="due">{email}</span> : null}{' '}
                {cancel ? (
                  <button type="button" onClick={() => run(cancel.type, cancel.args)} aria-label={`Cancel the invitation to ${email ?? name ?? 'this person'}`}>
                    Cancel invitation
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {canShare ? (
      <form onSubmit={submit}>
        <label>
          Invite by e-mail
          <input type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </label>
        <button type="submit">Invite</button>
      </form>
      ) : null}
    </details>
  );
}
