import { useState } from 'preact/hooks';
import type { Project } from '../api/sync-types';
import { run } from '../state/session';
import { viewData } from '../state/store';
import { invitedPeople, projectPeople } from '../state/task-selectors';

/** Who is on the project, and an invitation by e-mail (share_project; they accept from their notifications). */
export function ShareProject({ project, canShare }: { project: Project; canShare: boolean }) {
  const [email, setEmail] = useState('');
  const people = projectPeople(viewData.value, project.id);
  const invited = invitedPeople(viewData.value, project.id);
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
            {invited.map(({ id, full_name, email }) => (
              <li key={id} data-testid="pending-invitation">
                {full_name ?? email} {email ? <span class="due">{email}</span> : null}{' '}
                {canShare && email ? (
                  // delete_collaborator withdraws an invitation not yet answered (the API names it by address).
                  <button type="button" onClick={() => run('delete_collaborator', { project_id: project.id, email })} aria-label={`Cancel the invitation to ${email}`}>
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
