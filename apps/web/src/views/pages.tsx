import { useEffect, useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { localDay } from '../state/dates';
import { filterTasks } from '../api/filter-tasks';
import { type CompletedTask, completedTasks } from '../state/rest-calls';
import { serverData, viewData } from '../state/store';
import { inboxId, labelView, projectView, searchView, todayView, upcomingView } from '../state/task-selectors';
import { AddTask } from './add-task';
import { ProjectActions } from './project-actions';
import { ShareProject } from './share-project';
import { TaskList, TaskTree } from './task-row';

function Page({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </>
  );
}

export function InboxPage() {
  const data = viewData.value;
  const id = inboxId(data);
  const view = id ? projectView(data, id) : { unsectioned: [], sections: [] };
  return (
    <Page title="Inbox">
      <AddTask />
      {view.unsectioned.length === 0 ? <p class="empty">Your inbox is empty.</p> : <TaskTree nodes={view.unsectioned} label="Inbox tasks" />}
    </Page>
  );
}

export function TodayPage() {
  const { overdue, today } = todayView(viewData.value, localDay(new Date()));
  return (
    <Page title="Today">
      <AddTask dueIfNone="today" />
      {overdue.length > 0 ? (
        <section aria-labelledby="overdue-title">
          <h2 id="overdue-title">Overdue</h2>
          <TaskList items={overdue} label="Overdue tasks" />
        </section>
      ) : null}
      <section aria-labelledby="today-title">
        <h2 id="today-title">Due today</h2>
        <TaskList items={today} label="Today's tasks" empty="Nothing due today." />
      </section>
    </Page>
  );
}

export function UpcomingPage() {
  const days = upcomingView(viewData.value, localDay(new Date()));
  return (
    <Page title="Upcoming">
      {days.map(({ day, tasks }) => (
        <section key={day} aria-labelledby={`day-${day}`}>
          <h2 id={`day-${day}`}>{new Date(`${day}T00:00:00`).toLocaleDateString(undefined, { weekday: 'long', month: 'short', day: 'numeric' })}</h2>
          <TaskList items={tasks} label={`Tasks on ${day}`} empty="Nothing planned." />
        </section>
      ))}
    </Page>
  );
}

/** Quick add's project syntax: spaces escaped (`#My\ Project`). */
const projectTag = (name: string) => `#${name.replace(/ /g, '\\ ')}`;

export function ProjectPage({ id }: { id: string }) {
  const data = viewData.value;
  const project = data.projects.get(id);
  if (!project) return <Page title="Project not found">{serverData.value.user ? <p>This project does not exist or is no longer shared with you.</p> : <p>Loading…</p>}</Page>;
  const view = projectView(data, id);
  return (
    <Page title={project.name}>
      {project.inbox_project ? null : <ProjectActions project={project} />}
      {project.inbox_project ? null : <ShareProject project={project} />}
      <AddTask context={project.inbox_project ? undefined : projectTag(project.name)} offlineArgs={project.inbox_project ? undefined : { project_id: project.id }} queued={!serverData.value.projects.has(project.id)} />
      {view.unsectioned.length > 0 ? <TaskTree nodes={view.unsectioned} label={`${project.name} tasks`} /> : null}
      {view.sections.map((section) => (
        <section key={section.id} aria-labelledby={`section-${section.id}`} data-testid="section">
          <h2 id={`section-${section.id}`}>{section.name}</h2>
          {section.tasks.length > 0 ? <TaskTree nodes={section.tasks} label={`${section.name} tasks`} /> : <p class="empty">No tasks.</p>}
        </section>
      ))}
      {view.unsectioned.length === 0 && view.sections.length === 0 ? <p class="empty">No tasks.</p> : null}
    </Page>
  );
}

export function LabelPage({ name }: { name: string }) {
  return (
    <Page title={`@${name}`}>
      <AddTask context={`@${name}`} offlineArgs={{ labels: [name] }} />
      <TaskList items={labelView(viewData.value, name)} label={`Tasks labelled ${name}`} />
    </Page>
  );
}

/** Runs a server query and re-runs it whenever the synced state changes (a push, a local edit). */
function useServerQuery<T>(load: () => Promise<T>, key: string): { result: T | undefined; error: string | null } {
  const [result, setResult] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const token = serverData.value.syncToken;
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && (setResult(value), setError(null)),
      (err: unknown) => current && setError(err instanceof Error ? err.message : 'Could not load.'),
    );
    return () => {
      current = false;
    };
  }, [key, token]);
  return { result, error };
}

export function FilterPage({ id }: { id: string }) {
  const filter = viewData.value.filters.get(id);
  const { result, error } = useServerQuery(() => (filter ? filterTasks(filter.query) : Promise.resolve([] as Item[])), `${id}:${filter?.query ?? ''}`);
  if (!filter) return <Page title="Filter not found">{null}</Page>;
  // The server evaluates the filter language; the local copy of each task is shown so edits made here show at once.
  const items = (result ?? []).map((task) => viewData.value.items.get(task.id) ?? task).filter((item) => !item.checked);
  return (
    <Page title={filter.name}>
      <p class="query">
        Query: <code>{filter.query}</code>
      </p>
      {error ? <p role="alert">{error}</p> : result === undefined ? <p>Loading…</p> : <TaskList items={items} label={`Tasks matching ${filter.name}`} />}
    </Page>
  );
}

export function SearchPage({ query }: { query: string }) {
  const results = searchView(viewData.value, query);
  return (
    <Page title={query ? `Search: ${query}` : 'Search'}>
      <form
        role="search"
        aria-label="Search tasks"
        onSubmit={(event) => {
          event.preventDefault();
          const input = event.currentTarget.elements.namedItem('q') as HTMLInputElement;
          location.hash = `#/search/${encodeURIComponent(input.value)}`;
        }}
      >
        <label for="search-input">Search tasks</label>
        <input id="search-input" name="q" type="search" defaultValue={query} />
        <button type="submit">Search</button>
      </form>
      {query ? <TaskList items={results} label="Search results" empty="No task matches." /> : null}
    </Page>
  );
}

export function CompletedPage() {
  const { result, error } = useServerQuery<CompletedTask[]>(completedTasks, 'completed');
  const projects = viewData.value.projects;
  return (
    <Page title="Completed">
      {error ? <p role="alert">{error}</p> : null}
      {result === undefined && !error ? <p>Loading…</p> : null}
      {result && result.length === 0 ? <p class="empty">Nothing completed in the last four weeks.</p> : null}
      {result && result.length > 0 ? (
        <ul class="tasks" aria-label="Completed tasks">
          {result.map((task) => (
            <li key={task.id ?? task.task_id} aria-label={task.content} data-testid="completed-task">
              <span class="content">{task.content}</span> <span class="due">{new Date(task.completed_at).toLocaleString()}</span> <span class="project">{projects.get(task.project_id)?.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Page>
  );
}
