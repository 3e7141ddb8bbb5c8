import type { Project } from '../api/sync-types';
import { routeHash } from '../state/routes';
import { viewData } from '../state/store';
import { subProjects } from '../state/workspace-selectors';
import { NewProject } from './new-project';

/**
 * A project's sub-projects, linked, and (for those who may manage the project) New sub-project.
 * The navigation nests them too; here they are one step from the parent's own page.
 */
export function SubProjects({ project, canAdd }: { project: Project; canAdd: boolean }) {
  const children = subProjects(viewData.value, project.id);
  if (children.length === 0 && !canAdd) return null;
  return (
    <section aria-labelledby="sub-projects-title" class="sub-projects">
      <h2 id="sub-projects-title">Sub-projects</h2>
      {children.length > 0 ? (
        <ul aria-labelledby="sub-projects-title">
          {children.map((child) => (
            <li key={child.id}>
              <a href={routeHash({ view: 'project', id: child.id })}>{child.name}</a>
            </li>
          ))}
        </ul>
      ) : null}
      {canAdd ? <NewProject parent={project} /> : null}
    </section>
  );
}
