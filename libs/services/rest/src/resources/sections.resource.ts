import { Injectable } from '@nestjs/common';
import { optionalId, optionalInt, optionalString, requiredId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ResourceKit } from './resource-kit';

/** Sections on every surface, plus archive, unarchive and search on api/v1. */
@Injectable()
export class SectionsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'sections.list': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id') }),
    'sections.archived': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id'), archived: true }),
    'sections.search': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id'), search: requiredString(call.query, 'query', 1024) }),
    'sections.get': (call) => this.kit.one(call, { resource: 'section', id: call.params['id'] }),
    'sections.create': (call) => {
      const order = optionalInt(call.body, 'order', { min: 0 });
      const args = { name: requiredString(call.body, 'name', 2048), project_id: requiredId(call.body, 'project_id'), ...(order === undefined ? {} : { section_order: order }) };
      return this.kit.created(call, { type: 'section_add', args }, 'section', (id) => ({ resource: 'section', id }));
    },
    'sections.update': (call) => {
      const id = call.params['id'];
      const name = call.surface === 'rest-api-v1' ? optionalString(call.body, 'name', 2048) : requiredString(call.body, 'name', 2048);
      return this.kit.updated(call, [{ type: 'section_update', args: { id, ...(name === undefined ? {} : { name }) } }], { resource: 'section', id });
    },
    'sections.delete': (call) => this.command(call, 'section_delete'),
    'sections.archive': (call) => this.lifecycle(call, 'section_archive'),
    'sections.unarchive': (call) => this.lifecycle(call, 'section_unarchive'),
  };

  private list(call: RestCall, options: { project_id?: string; search?: string; archived?: boolean }) {
    return this.kit.list(call, { resource: 'sections', ...options });
  }

  private async command(call: RestCall, type: string) {
    await this.kit.objects.change(call, [{ type, args: { id: call.params['id'] } }]);
    return noContent();
  }

  private lifecycle(call: RestCall, type: string) {
    const id = call.params['id'];
    return this.kit.changed(call, [{ type, args: { id } }], { resource: 'section', id });
  }
}
