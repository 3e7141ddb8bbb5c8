import { randomUUID } from 'node:crypto';
import type { Dialect, Principal } from '@doable/contracts-common';
import { requestIdUuid } from '@doable/contracts-sync';
import { DomainError, domainErrorFromBody } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { labelIdLookup, labelIdsOf, SYNC_DIALECTS, writeV8Item } from '@doable/sync-dialects';
import { CommandExecutor, firstRefusal, QUICK_ADD_COMMAND } from '@doable/sync-engine';
import { type Item, ItemRepository, LabelRepository, ProjectRepository, SectionRepository } from '@doable/sync-domain';

/** The request parameters of `quick/add` (v9) and `tasks/quick` (api/v1), from a JSON or form body. */
export interface QuickAddParams {
  readonly text?: unknown;
  readonly content?: unknown;
  readonly note?: unknown;
  readonly reminder?: unknown;
  readonly auto_reminder?: unknown;
  readonly meta?: unknown;
}

const scalar = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const isTrue = (value: unknown): boolean => {
  const v = scalar(value);
  return v === true || v === 1 || v === 'true' || v === '1';
};
/**
 * The quick add command's temp id, one per request (`quick_add:<uuid>`): the executor maps it to
 * the task created and keeps that mapping in the command log with the uuid, where a replay reads
 * it back. Bound to the uuid so that no client's own temp id (the executor remembers temp ids
 * across requests) can name a quick-added task. Quick adds logged before it was bound answer
 * under the plain `quick_add` key.
 */
const createdKey = (uuid: string): string => `quick_add:${uuid}`;
const EARLIER_CREATED_KEY = 'quick_add';

const optionalText = (value: unknown, argument: string): string | null => {
  const v = scalar(value);
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
  return v;
};

/**
 * Quick add: one task line parsed into a task, with an optional comment and reminder. The work
 * is the internal `quick_add` command (ItemQuickAddCommand), run by the command executor like a
 * client's commands: this service reads the request's parameters, answers the command's refusal
 * as the request's error, and renders the task it created in the request's dialect.
 */
@Injectable()
export class QuickAddService {
  constructor(
    private readonly database: Database,
    private readonly executor: CommandExecutor,
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly labels: LabelRepository,
    private readonly items: ItemRepository,
  ) {}

  /**
   * With a `requestId` (the request's `X-Request-Id`) the quick add is idempotent: the command's
   * uuid is `rest:<id>`, so a replay answers the outcome the first request had (the task it
   * created, or its refusal) without adding anything; without one, the uuid is fresh.
   */
  async quickAdd(principal: Principal, dialect: Dialect, params: QuickAddParams, requestId: string | null = null): Promise<Record<string, unknown>> {
    // The token before the arguments: one that may not add tasks learns nothing from a validation error.
    this.executor.requirePermitted(principal, QUICK_ADD_COMMAND);
    const line = optionalText(params.text ?? params.content, 'text');
    if (line === null) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: text', { argument: 'text' });
    const note = optionalText(params.note, 'note');
    const reminder = optionalText(params.reminder, 'reminder');

    const uuid = requestId === null ? randomUUID() : requestIdUuid(requestId);
    const results = await this.executor.runInternal(principal, {
      type: QUICK_ADD_COMMAND,
      uuid,
      temp_id: createdKey(uuid),
      args: { text: line, note, reminder, auto_reminder: isTrue(params.auto_reminder) },
    });
    const status = results.syncStatus[uuid];
    const refusal = status === undefined ? undefined : firstRefusal(status);
    if (refusal) throw domainErrorFromBody(refusal);
    const createdId = results.tempIdMapping[createdKey(uuid)] ?? results.tempIdMapping[EARLIER_CREATED_KEY];
    if (createdId === undefined) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'X-Request-Id was already used by a request that was not this quick add', { argument: 'X-Request-Id' });
    }
    return this.database.transaction(async (tx) => {
      const item = await this.items.findVisibleForUpdate(tx.manager, principal.userId, createdId);
      if (!item) throw new DomainError('ITEM_NOT_FOUND', 'The task this request created no longer exists');
      return this.render(tx.manager, principal.userId, dialect, item, line, note !== null, isTrue(params.meta));
    });
  }

  /** The created task in the dialect's shape, with `meta` (what the line was read as) when asked. */
  private async render(
    manager: EntityManager,
    userId: string,
    dialect: Dialect,
    item: Item,
    line: string,
    withNote: boolean,
    meta: boolean,
  ): Promise<Record<string, unknown>> {
    const labelRows = await Promise.all(item.labels.map((name) => this.labels.findByNameForUpdate(manager, userId, name)));
    const known = labelRows.filter((label) => label !== undefined && label !== null);
    // v8 and v7 write a task's labels as ids: from the labels the task names, read here.
    let body: Record<string, unknown>;
    if (dialect === 'sync-v8') body = writeV8Item(item, labelIdLookup(known));
    else if (dialect === 'sync-v7') body = { ...SYNC_DIALECTS['sync-v7'].writers.item(item), labels: labelIdsOf(item.labels, labelIdLookup(known)) };
    else body = SYNC_DIALECTS[dialect === 'sync-v9' ? 'sync-v9' : 'sync-api-v1'].writers.item(item);
    // The writer counts no comments (sync reads never need it); this task has exactly the one made with it.
    if (withNote && 'note_count' in body) body['note_count'] = 1;
    if (!meta) return body;
    const projects = await this.projects.listActive(manager, userId);
    const sections = await this.sections.listActive(manager, userId);
    const project = projects.find((candidate) => candidate.id === item.project_id);
    const section = sections.find((candidate) => candidate.id === item.section_id);
    const labels = labelRows;
    return {
        ...body,
        meta: {
          project: [item.project_id, project?.name ?? null],
          section: section ? [section.id, section.name] : null,
          labels: Object.fromEntries(labels.flatMap((label) => (label ? [[label.id, label.name]] : []))),
          due: body['due'] ?? null,
          deadline: body['deadline'] ?? null,
          priority: item.priority,
          content: item.content,
          text: line,
        },
      };
  }
}
