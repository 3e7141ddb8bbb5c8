import { useState } from 'preact/hooks';
import type { Project } from '../api/sync-types';
import { run } from '../state/session';
import { viewData } from '../state/store';
import { projectPeople } from '../state/task-selectors';

/** Who is on the project, and an invitation by e-mail (share_project; they accept from their notifications). */
export function ShareProject({ project }: { project: Project }) {
  const [email, setEmail] = useState('');
  const people = projectPeople(viewData.value, project.id);
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
      <form onSubmit={submit}>
        <label>
          Invite by e-mail
          <input type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </label>
        <button type="submit">Invite</button>
      </form>
    </details>
  );
}
