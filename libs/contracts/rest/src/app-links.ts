/**
 * Where the web app shows a task and a project: the `url` of REST v1 and v2 objects, and the link
 * in mails. One place, since the SQL that writes REST v2 task lists builds the same link.
 */
export const TASK_PAGE_PATH = '/app/task/';
export const PROJECT_PAGE_PATH = '/app/project/';

export function taskPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl}${TASK_PAGE_PATH}${id}`;
}

export function projectPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl}${PROJECT_PAGE_PATH}${id}`;
}
