import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { viewData, route } from '../state/store';
import { routeHash, type Route } from '../state/routes';
import { unreadNotifications } from '../state/task-selectors';
import { NewProject } from './new-project';
import { projectDropProps, projectDropTarget } from './task-drag';
import { personalProjects, type ProjectNode, projectForest, workspaceList, workspaceProjects } from '../state/workspace-selectors';

function NavLink({ to, children, nested, sub }: { to: Route; children: preact.ComponentChildren; nested?: boolean; sub?: preact.ComponentChildren }) {
  const href = routeHash(to);
  const current = routeHash(route.value) === href;
  const dropTarget = to.view === 'project' && projectDropTarget.value === to.id;
  return (
    <li class={nested ? 'nested' : undefined}>
      <a href={href} aria-current={current ? 'page' : undefined} class={dropTarget ? 'drop-target' : undefined} {...(to.view === 'project' ? projectDropProps(to.id) : {})}>
        {children}
      </a>
      {sub}
    </li>
  );
}

/** Projects with their sub-projects as lists inside their parent's item, so a screen reader says the level. */
function ProjectLinks({ nodes, nested }: { nodes: ProjectNode[]; nested?: boolean }) {
  return (
    <>
      {nodes.map(({ project, children }) => (
        <NavLink
          key={project.id}
          to={{ view: 'project', id: project.id }}
          nested={nested}
          sub={
            children.length > 0 ? (
              <ul aria-label={`Sub-projects of ${project.name}`}>
                <ProjectLinks nodes={children} nested />
              </ul>
            ) : null
          }
        >
          {project.name}
        </NavLink>
      ))}
    </>
  );
}

/** Whether the navigation drawer is open (a phone's width only: wider, the navigation is always shown). */
export const menuOpen = signal(false);

/** Views, projects, labels and filters; each link is named like its view (the e2e finds them so). */
export function Nav() {
  const data = viewData.value;
  // A choice in the drawer closes it; so does Escape, giving focus back to Menu.
  const key = JSON.stringify(route.value);
  useEffect(() => {
    menuOpen.value = false;
  }, [key]);
  useEffect(() => {
    if (!menuOpen.value) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      menuOpen.value = false;
      document.querySelector<HTMLElement>('.menu-button')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen.value]);
  const projects = personalProjects(data);
  const workspaces = workspaceList(data);
  const labels = [...data.labels.values()].sort((a, b) => (a.item_order ?? 0) - (b.item_order ?? 0));
  const filters = [...data.filters.values()].sort((a, b) => (a.item_order ?? 0) - (b.item_order ?? 0));
  return (
    <nav aria-label="Views" id="app-nav" class={menuOpen.value ? 'open' : undefined}>
      <ul>
        <NavLink to={{ view: 'inbox' }}>Inbox</NavLink>
        <NavLink to={{ view: 'today' }}>Today</NavLink>
        <NavLink to={{ view: 'upcoming' }}>Upcoming</NavLink>
        <NavLink to={{ view: 'search', query: '' }}>Search</NavLink>
        <NavLink to={{ view: 'completed' }}>Completed</NavLink>
        <NavLink to={{ view: 'notifications' }}>
          Notifications
          {unreadNotifications(data) > 0 ? <span class="badge"> ({unreadNotifications(data)} unread)</span> : null}
        </NavLink>
        <NavLink to={{ view: 'settings' }}>Settings</NavLink>
      </ul>
      <h2 id="nav-projects">Projects</h2>
      <ul aria-labelledby="nav-projects">
        <ProjectLinks nodes={projectForest(projects)} />
      </ul>
      <NewProject />
      <ul aria-label="Archive">
        <NavLink to={{ view: 'archived' }}>Archived projects</NavLink>
      </ul>
      {workspaces.length > 0 ? (
        <>
          <h2 id="nav-workspaces">Workspaces</h2>
          {/* One list per workspace: its page, then its projects (each one click, and one drop target, away). */}
          {workspaces.map((workspace) => (
            <ul key={workspace.id} aria-label={`Workspace ${workspace.name}`}>
              <NavLink to={{ view: 'workspace', id: workspace.id }}>{workspace.name}</NavLink>
              <ProjectLinks nodes={projectForest(workspaceProjects(data, workspace.id))} nested />
            </ul>
          ))}
        </>
      ) : null}
      {labels.length > 0 ? (
        <>
          <h2 id="nav-labels">Labels</h2>
          <ul aria-labelledby="nav-labels">
            {labels.map((label) => (
              <NavLink key={label.id} to={{ view: 'label', name: label.name }}>
                {label.name}
              </NavLink>
            ))}
          </ul>
        </>
      ) : null}
      <h2 id="nav-filters">Filters</h2>
      <ul aria-labelledby="nav-filters">
        {filters.map((filter) => (
          <NavLink key={filter.id} to={{ view: 'filter', id: filter.id }}>
            {filter.name}
          </NavLink>
        ))}
        <NavLink to={{ view: 'filter', id: 'new' }}>New filter</NavLink>
      </ul>
    </nav>
  );
}
