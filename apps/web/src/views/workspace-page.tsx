import type { Project } from '../api/sync-types';
import { routeHash } from '../state/routes';
import { serverData, viewData } from '../state/store';
import { workspaceView } from '../state/workspace-selectors';

function ProjectLinks({ projects, label }: { projects: Project[]; label: string }) {
  return (
    <ul class="workspace-projects" aria-label={label}>
      {projects.map((project) => (
        <li key={project.id}>
          <a href={routeHash({ view: 'project', id: project.id })}>{project.name}</a>
        </li>
      ))}
    </ul>
  );
}

/** A workspace: its projects grouped by folder as the Sync API sends them; each opens as any project does. */
export function WorkspacePage({ id }: { id: string }) {
  const view = workspaceView(viewData.value, id);
  if (!view) {
    return (
      <>
        <h1 id="view-title" tabIndex={-1}>
          Workspace not found
        </h1>
        {serverData.value.user ? <p>This workspace does not exist or you are no longer a member.</p> : <p>Loading…</p>}
      </>
    );
  }
  const { workspace, folders, loose, members } = view;
  const count = workspace.current_member_count;
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        {workspace.name}
      </h1>
      {workspace.description ? <p>{workspace.description}</p> : null}
      <p class="query">
        {workspace.role ? `Your role: ${workspace.role.toLowerCase()}` : null}
        {count !== undefined ? `${workspace.role ? ' · ' : ''}${count} member${count === 1 ? '' : 's'}` : null}
      </p>
      {folders.length === 0 && loose.length === 0 ? <p class="empty">No projects you can see.</p> : null}
      {loose.length > 0 ? <ProjectLinks projects={loose} label={`${workspace.name} projects`} /> : null}
      {folders.map(({ folder, projects }) => (
        <section key={folder.id} aria-labelledby={`folder-${folder.id}`}>
          <h2 id={`folder-${folder.id}`}>{folder.name}</h2>
          <ProjectLinks projects={projects} label={`Projects in ${folder.name}`} />
        </section>
      ))}
      {members.length > 0 ? (
        <section aria-labelledby="workspace-members">
          <h2 id="workspace-members">Members</h2>
          <ul aria-labelledby="workspace-members">
            {members.map((member) => (
              <li key={member.user_id}>
                {member.full_name ?? member.user_email} {member.role ? <span class="query">({member.role.toLowerCase()})</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
