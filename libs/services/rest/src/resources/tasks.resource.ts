import type { ObjectQueryFor } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { idList, optionalId, optionalString, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import { noContent, ResourceKit } from './resource-kit';
import type { OperationHandler, RestResource } from './operation';
import { type LabelNames, taskCreateArgs, taskMoveArgs, taskUpdateArgs } from './task-args';

type TaskListQuery = ObjectQueryFor<'tasks' | 'tasks_by_filter'>;

/** Tasks on every surface: list (and filter), get, create, update, close, reopen, delete, move. */
@Injectable()
export class TasksResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'tasks.list': (call) => this.list(call),
    'tasks.filter': (call) => this.listQuery(call, { resource: 'tasks_by_filter', filter: requiredString(call.query, 'query', 1024), lang: optionalString(call.query, 'lang', 8) }),
    'tasks.get': (call) => this.kit.one(call, this.taskQuery(call, call.params['id'])),
    'tasks.create': async (call) => {
      requiredString(call.body, 'content');
      const args = taskCreateArgs(call.body, call.surface, await this.labelNames(call));
      return this.kit.created(call, { type: 'item_add', args }, 'task', (id) => this.taskQuery(call, id));
    },
    'tasks.update': async (call) => {
      const id = call.params['id'];
      const args = taskUpdateArgs(id, call.body, call.surface, await this.labelNames(call));
      return this.kit.updated(call, [{ type: 'item_update', args }], this.taskQuery(call, id));
    },
    'tasks.close': (call) => this.command(call, 'item_close'),
    'tasks.reopen': (call) => this.command(call, 'item_uncomplete'),
    'tasks.delete': (call) => this.command(call, 'item_delete'),
    'tasks.move': (call) => {
      const id = call.params['id'];
      return this.kit.changed(call, [{ type: 'item_move', args: taskMoveArgs(id, call.body) }], this.taskQuery(call, id));
    },
  };

  /**
   * REST v2 gives `filter` precedence over `ids`, and `ids` over project, section and label
   * (public-api-facts §4.1); api/v1 moved the filter to `/tasks/filter`.
   */
  private async list(call: RestCall) {
    const filter = call.surface === 'rest-api-v1' ? undefined : optionalString(call.query, 'filter', 1024);
    if (filter !== undefined && filter.trim() !== '') return this.listQuery(call, { resource: 'tasks_by_filter', filter, lang: optionalString(call.query, 'lang', 8) });
    const ids = idList(call.query, 'ids');
    if (ids !== undefined) return this.listQuery(call, { resource: 'tasks', ids });
    return this.listQuery(call, {
      resource: 'tasks',
      project_id: optionalId(call.query, 'project_id'),
      section_id: optionalId(call.query, 'section_id'),
      parent_id: call.surface === 'rest-api-v1' ? optionalId(call.query, 'parent_id') : undefined,
      label: call.surface === 'rest-v1' ? await this.labelNameOf(call) : optionalString(call.query, 'label', 1024),
    });
  }

  private listQuery(call: RestCall, query: TaskListQuery) {
    return this.kit.list(call, this.kit.wantsLabelIds(call) ? { ...query, label_ids: true } : query);
  }

  /** One task by id (or temp id), with its labels' ids where the surface writes them. */
  private taskQuery(call: RestCall, id: string): ObjectQueryFor<'task'> {
    return this.kit.wantsLabelIds(call) ? { resource: 'task', id, label_ids: true } : { resource: 'task', id };
  }

  private async command(call: RestCall, type: string) {
    await this.kit.objects.change(call, [{ type, args: { id: call.params['id'] } }]);
    return noContent();
  }

  /** REST v1 filters by `label_id`; the domain by name. An unknown id lists nothing. */
  private async labelNameOf(call: RestCall): Promise<string | undefined> {
    const id = optionalId(call.query, 'label_id');
    if (id === undefined) return undefined;
    const label = (await this.kit.labels(call)).find((candidate) => candidate.id === id);
    if (!label) throw new DomainError('LABEL_NOT_FOUND', 'Label not found', { argument: 'label_id' });
    return label.name;
  }

  /** REST v1 only: label ids to names, refusing ids the user does not have. */
  private async labelNames(call: RestCall): Promise<LabelNames | undefined> {
    if (call.surface !== 'rest-v1' || call.body['label_ids'] === undefined) return undefined;
    const byId = new Map((await this.kit.labels(call)).map((label) => [label.id, label.name]));
    return (ids) =>
      ids.map((id) => {
        const name = byId.get(id);
        if (name === undefined) throw new DomainError('LABEL_NOT_FOUND', 'Label not found', { argument: 'label_ids', id });
        return name;
      });
  }
}
