import { type RestSurface, type RestTaskInput, TASK_CREATE_INPUTS, TASK_UPDATE_INPUTS } from '@doable/contracts-rest';
import { DomainError } from '@doable/shared-errors';
import { type Args, nullableId, nullableString, optionalId, optionalInt, optionalString, optionalStringArray } from '../call/rest-args';

const DUE_FIELDS = ['due_string', 'due_date', 'due_datetime'] as const;

/** REST v1 names labels by id; the domain by name. Unknown ids are a coded 400, not a silent drop. */
export type LabelNames = (ids: readonly string[]) => string[];

function dueArg(body: Args): Record<string, unknown> | null | undefined {
  const sent = DUE_FIELDS.filter((field) => body[field] !== undefined && body[field] !== null);
  if (sent.length > 1) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `Only one of due_string, due_date and due_datetime may be sent (got ${sent.join(', ')})`, { argument: sent[1] });
  }
  const lang = optionalString(body, 'due_lang', 8);
  const language = lang === undefined ? {} : { lang };
  const dueString = nullableString(body, 'due_string');
  if (dueString !== undefined && dueString !== null) return { string: dueString, ...language };
  const dueDate = nullableString(body, 'due_date');
  if (dueDate !== undefined && dueDate !== null) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: due_date (YYYY-MM-DD)', { argument: 'due_date' });
    return { date: dueDate, ...language };
  }
  const dueDatetime = nullableString(body, 'due_datetime');
  if (dueDatetime !== undefined && dueDatetime !== null) return { datetime: dueDatetime, ...language };
  // An explicit null on any of them clears the date.
  return DUE_FIELDS.some((field) => body[field] === null) ? null : undefined;
}

/** `duration` and `duration_unit` come together or not at all; null on either clears it. */
function durationArg(body: Args): Record<string, unknown> | null | undefined {
  if (body['duration'] === null || body['duration_unit'] === null) return null;
  const amount = optionalInt(body, 'duration', { min: 1 });
  const unit = optionalString(body, 'duration_unit', 16);
  if (amount === undefined && unit === undefined) return undefined;
  if (amount === undefined || unit === undefined) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'duration and duration_unit must be sent together', { argument: amount === undefined ? 'duration' : 'duration_unit' });
  }
  if (unit !== 'minute' && unit !== 'day') throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: duration_unit (minute or day)', { argument: 'duration_unit' });
  return { amount, unit };
}

function deadlineArg(body: Args): Record<string, unknown> | null | undefined {
  const date = nullableString(body, 'deadline_date');
  if (date === null) return null;
  if (date === undefined) return undefined;
  const lang = optionalString(body, 'deadline_lang', 8);
  return { date, ...(lang === undefined ? {} : { lang }) };
}

function labelsArg(body: Args, surface: RestSurface, labelNames: LabelNames | undefined): string[] | undefined {
  if (surface === 'rest-v1' && body['label_ids'] !== undefined) {
    const ids = body['label_ids'];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'number' || typeof id === 'string')) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: label_ids (a list of ids)', { argument: 'label_ids' });
    }
    return labelNames ? labelNames(ids.map(String)) : [];
  }
  return optionalStringArray(body, 'labels');
}

/**
 * The task fields REST takes as they are (a line of the task table REST spells no way of its
 * own: TASK_CREATE_INPUTS, TASK_UPDATE_INPUTS), under the command's names. The body was checked
 * against their schemas before the handler ran (rest-input.ts); REST v1 takes none of them.
 */
export function asTakenInputs(body: Args, surface: RestSurface, inputs: readonly RestTaskInput[]): Record<string, unknown> {
  if (surface === 'rest-v1') return {};
  return Object.fromEntries(inputs.flatMap((input) => (body[input.key] === undefined ? [] : [[input.field, body[input.key]]])));
}

/** Fields a task's create and update share, as `item_add`/`item_update` arguments. */
function taskFields(body: Args, surface: RestSurface, labelNames: LabelNames | undefined, inputs: readonly RestTaskInput[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    ...asTakenInputs(body, surface, inputs),
    content: optionalString(body, 'content'),
    description: optionalString(body, 'description'),
    priority: optionalInt(body, 'priority', { min: 1, max: 4 }),
    labels: labelsArg(body, surface, labelNames),
    due: dueArg(body),
    duration: durationArg(body),
    deadline: deadlineArg(body),
    responsible_uid: surface === 'rest-v1' ? nullableId(body, 'assignee') : nullableId(body, 'assignee_id'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** `POST /tasks`: where the task goes, and its fields. */
export function taskCreateArgs(body: Args, surface: RestSurface, labelNames?: LabelNames): Record<string, unknown> {
  const placement = {
    project_id: optionalId(body, 'project_id'),
    section_id: nullableId(body, 'section_id') ?? undefined,
    parent_id: nullableId(body, 'parent_id') ?? undefined,
    child_order: optionalInt(body, 'order', { min: 0 }),
  };
  return { ...Object.fromEntries(Object.entries(placement).filter(([, value]) => value !== undefined)), ...taskFields(body, surface, labelNames, TASK_CREATE_INPUTS) };
}

/** `POST /tasks/{id}`: the fields to change (REST does not move tasks here). */
export function taskUpdateArgs(id: string, body: Args, surface: RestSurface, labelNames?: LabelNames): Record<string, unknown> {
  return { id, ...taskFields(body, surface, labelNames, TASK_UPDATE_INPUTS) };
}

/** `POST /api/v1/tasks/{id}/move`: exactly one destination. */
export function taskMoveArgs(id: string, body: Args): Record<string, unknown> {
  const destinations = (['project_id', 'section_id', 'parent_id'] as const).flatMap((name) => {
    const value = optionalId(body, name);
    return value === undefined ? [] : [[name, value] as const];
  });
  if (destinations.length !== 1) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Send exactly one of project_id, section_id and parent_id', { argument: destinations[1]?.[0] ?? 'project_id' });
  }
  return { id, ...Object.fromEntries(destinations) };
}
