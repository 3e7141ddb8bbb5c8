import { useEffect, useRef, useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { addDays, localDay } from '../state/dates';
import { dateSettings, friendlyDay, friendlyMoment, isoWeekday, shortDate } from '../state/friendly-dates';
import { reopenTask } from '../state/task-actions';
import { filterTasks } from '../api/filter-tasks';
import { type CompletedTask, completedTasks } from '../state/rest-calls';
import { serverData, viewData } from '../state/store';
import { inboxId, labelView, projectView, searchView, todayView, upcomingView } from '../state/task-selectors';
import { AddTask } from './add-task';
import { useServerQuery } from './server-query';
import { ProjectActions } from './project-actions';
import { FilterForm, LabelActions } from './organise-forms';
import { myRole, projectRights } from '../state/roles';
import { AddSection, SectionHeading } from './section-actions';
import { ShareProject } from './share-project';
import { SubProjects } from './sub-projects';
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

/** Days Upcoming shows at first, and adds each time its end comes into view (or More days is pressed). */
const UPCOMING_STEP = 14;

/**
 * Overdue at the top, then day after day from today, without end: a sentinel under the last day
 * adds two more weeks when it scrolls into view (the button does the same for the keyboard).
 * A day's heading is the person's friendly date; a week starts on their first weekday.
 */
export function UpcomingPage() {
  const [count, setCount] = useState(UPCOMING_STEP);
  const today = localDay(new Date());
  const settings = dateSettings(viewData.value.user);
  const { overdue } = todayView(viewData.value, today);
  const days = upcomingView(viewData.value, today, count);
  const sentinel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setCount((shown) => shown + UPCOMING_STEP);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [count]);
  return (
    <Page title="Upcoming">
      {overdue.length > 0 ? (
        <section aria-labelledby="upcoming-overdue">
          <h2 id="upcoming-overdue">Overdue</h2>
          <TaskList items={overdue} label="Overdue tasks" />
        </section>
      ) : null}
      {days.map(({ day, tasks }) => (
        <section key={day} aria-labelledby={`day-${day}`} class={isoWeekday(day) === settings.startDay ? 'week-start' : undefined} data-testid="upcoming-day">
          <h2 id={`day-${day}`}>{day === today || day === addDays(today, 1) ? `${friendlyDay(day, today, settings)} · ${shortDate(day, today, settings)}` : shortDate(day, today, settings)}</h2>
          {tasks.length > 0 ? <TaskList items={tasks} label={`Tasks on ${shortDate(day, today, settings)}`} /> : null}
        </section>
      ))}
      <button type="button" class="more" ref={sentinel} onClick={() => setCount(count + UPCOMING_STEP)}>
        More days
      </button>
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
  const rights = projectRights(myRole(data, id));
  return (
    <Page title={project.name}>
      {project.inbox_project ? null : <ProjectActions project={project} rights={rights} />}
      {project.inbox_project ? null : <ShareProject project={project} rights={rights} />}
      {project.is_archived ? <p role="status">This project is archived.</p> : null}
      <AddTask context={project.inbox_project ? undefined : projectTag(project.name)} offlineArgs={project.inbox_project ? undefined : { project_id: project.id }} queued={!serverData.value.projects.has(project.id)} />
      {view.unsectioned.length > 0 ? <TaskTree nodes={view.unsectioned} label={`${project.name} tasks`} /> : null}
      {view.sections.map((section) => (
        <section key={section.id} aria-labelledby={`section-${section.id}`} data-testid="section">
          <SectionHeading section={data.sections.get(section.id) ?? { id: section.id, name: section.name, project_id: id }} canEdit={rights.edit} />
          {section.tasks.length > 0 ? <TaskTree nodes={section.tasks} label={`${section.name} tasks`} /> : <p class="empty">No tasks.</p>}
        </section>
      ))}
      {view.unsectioned.length === 0 && view.sections.length === 0 ? <p class="empty">No tasks.</p> : null}
      {rights.edit ? <AddSection projectId={id} /> : null}
      {project.inbox_project ? null : <SubProjects project={project} canAdd={rights.manage && !project.is_archived} />}
    </Page>
  );
}

export function LabelPage({ name }: { name: string }) {
  const label = [...viewData.value.labels.values()].find((known) => known.name === name);
  return (
    <Page title={`@${name}`}>
      {label ? <LabelActions label={label} /> : null}
      <AddTask context={`@${name}`} offlineArgs={{ labels: [name] }} />
      <TaskList items={labelView(viewData.value, name)} label={`Tasks labelled ${name}`} />
    </Page>
  );
}

export function FilterPage({ id }: { id: string }) {
  const [editing, setEditing] = useState(false);
  const filter = viewData.value.filters.get(id);
  const { result, error } = useServerQuery(() => (filter ? filterTasks(filter.query) : Promise.resolve([] as Item[])), `${id}:${filter?.query ?? ''}`);
  if (id === 'new') {
    return (
      <Page title="New filter">
        <FilterForm onDone={() => undefined} />
      </Page>
    );
  }
  if (!filter) return <Page title="Filter not found">{null}</Page>;
  // The server evaluates the filter language; the local copy of each task is shown so edits made here show at once.
  const items = (result ?? []).map((task) => viewData.value.items.get(task.id) ?? task).filter((item) => !item.checked);
  return (
    <Page title={filter.name}>
      <p class="query">
        Query: <code>{filter.query}</code>{' '}
        {editing ? null : (
          <button type="button" onClick={() => setEditing(true)}>
            Edit filter
          </button>
        )}
      </p>
      {editing ? <FilterForm filter={filter} onDone={() => setEditing(false)} /> : null}
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
  const settings = dateSettings(viewData.value.user);
  // A task reopened here is open in the synced state at once (the overlay): it leaves this list then.
  const open = viewData.value.items;
  return (
    <Page title="Completed">
      {error ? <p role="alert">{error}</p> : null}
      {result === undefined && !error ? <p>Loading…</p> : null}
      {result && result.length === 0 ? <p class="empty">Nothing completed in the last four weeks.</p> : null}
      {result && result.length > 0 ? (
        <ul class="tasks" aria-label="Completed tasks">
          {result
            .filter((task) => {
              const id = task.task_id ?? task.id ?? '';
              return !(open.get(id)?.checked === false);
            })
            .map((task) => {
              const id = task.task_id ?? task.id ?? '';
              return (
                <li key={task.id ?? task.task_id} aria-label={task.content} data-testid="completed-task">
                  <a class="content" href={`#/task/${encodeURIComponent(id)}`}>
                    {task.content}
                  </a>{' '}
                  <span class="due">{friendlyMoment(task.completed_at, settings)}</span> <span class="project">{projects.get(task.project_id)?.name}</span>{' '}
                  <button type="button" onClick={() => reopenTask({ id, content: task.content })} aria-label={`Reopen ${task.content}`}>
                    Reopen
                  </button>
                </li>
              );
            })}
        </ul>
      ) : null}
    </Page>
  );
}
