import type { ApiSection } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import { optionalId, optionalInt, optionalString, requiredId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ok, ResourceKit } from './resource-kit';

/** Sections on every surface, plus archive, unarchive and search on api/v1. */
@Injectable()
export class SectionsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'sections.list': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id') }),
    'sections.archived': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id'), archived: true }),
    'sections.search': (call) => this.list(call, { project_id: optionalId(call.query, 'project_id'), search: requiredString(call.query, 'query', 1024) }),
    'sections.get': async (call) => ok(this.write(call, await this.kit.objects.readOne(call, { resource: 'section', id: call.params['id'] }))),
    'sections.create': async (call) => {
      const order = optionalInt(call.body, 'order', { min: 0 });
      const args = { name: requiredString(call.body, 'name', 2048), project_id: requiredId(call.body, 'project_id'), ...(order === undefined ? {} : { section_order: order }) };
      return ok(this.write(call, await this.kit.objects.create(call, { type: 'section_add', args }, (id) => ({ resource: 'section', id }))));
    },
    'sections.update': async (call) => {
      const id = call.params['id'];
      const name = call.surface === 'rest-api-v1' ? optionalString(call.body, 'name', 2048) : requiredString(call.body, 'name', 2048);
      const reply = await this.kit.objects.change(call, [{ type: 'section_update', args: { id, ...(name === undefined ? {} : { name }) } }], this.kit.dialect(call).updateAnswersObject ? { resource: 'section', id } : null);
      return this.kit.updated(call, () => Promise.resolve(this.write(call, reply.objects[0])));
    },
    'sections.delete': (call) => this.command(call, 'section_delete'),
    'sections.archive': (call) => this.lifecycle(call, 'section_archive'),
    'sections.unarchive': (call) => this.lifecycle(call, 'section_unarchive'),
  };

  private list(call: RestCall, options: { project_id?: string; search?: string; archived?: boolean }) {
    return this.kit.list(call, { resource: 'sections', ...options }, (section) => this.write(call, section));
  }

  private write(call: RestCall, section: ApiSection): Record<string, unknown> {
    return this.kit.dialect(call).section(section);
  }

  private async command(call: RestCall, type: string) {
    await this.kit.objects.change(call, [{ type, args: { id: call.params['id'] } }]);
    return noContent();
  }

  private async lifecycle(call: RestCall, type: string) {
    const id = call.params['id'];
    const reply = await this.kit.objects.change(call, [{ type, args: { id } }], { resource: 'section', id });
    return ok(this.write(call, reply.objects[0]));
  }
}
