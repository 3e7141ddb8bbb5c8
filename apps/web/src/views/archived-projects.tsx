import type { Project } from '../api/sync-types';
import { archivedProjects } from '../state/rest-calls';
import { myRole, projectRights } from '../state/roles';
import { run } from '../state/session';
import { viewData } from '../state/store';
import { useServerQuery } from './server-query';

/**
 * `#/archived`: the archived projects, each with Unarchive (`project_unarchive`, queued like every
 * command). The list is the server's (asked again after each sync), with what is pending here
 * laid over it: a project archived a moment ago shows at once, one unarchived leaves at once.
 */
export function ArchivedProjectsPage() {
  const { result, error } = useServerQuery(archivedProjects, 'archived');
  const data = viewData.value;
  const shown = new Map<string, Project>();
  for (const project of result ?? []) shown.set(project.id, project);
  for (const project of data.projects.values()) {
    if (project.is_archived) shown.set(project.id, project);
    else if (shown.has(project.id)) shown.delete(project.id);
  }
  const projects = [...shown.values()].filter((project) => !project.is_deleted).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        Archived projects
      </h1>
      {error ? <p role="alert">{error}</p> : null}
      {result === undefined && !error ? <p>Loading…</p> : null}
      {result !== undefined && projects.length === 0 ? <p class="empty">No archived project.</p> : null}
      {projects.length > 0 ? (
        <ul class="tasks" aria-label="Archived projects">
          {projects.map((project) => (
            <li key={project.id} aria-label={project.name} data-testid="archived-project">
              <span class="content">{project.name}</span>{' '}
              {/* Unarchiving is the project's managers' (as archiving is); the server refuses the others. */}
              {projectRights(myRole(data, project.id)).manage ? (
                <button type="button" aria-label={`Unarchive ${project.name}`} onClick={() => run('project_unarchive', { id: project.id })}>
                  Unarchive
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
