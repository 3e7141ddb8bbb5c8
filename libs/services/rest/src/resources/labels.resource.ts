import { Injectable } from '@nestjs/common';
import { type Args, optionalBoolean, optionalInt, optionalString, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ResourceKit } from './resource-kit';

function colorArg(body: Args): unknown {
  const color = body['color'];
  return typeof color === 'number' ? color : optionalString(body, 'color', 32);
}

/** Personal label fields; REST v1 spells `favorite` without the `is_`. */
function labelFields(call: RestCall): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    name: optionalString(call.body, 'name', 128),
    color: colorArg(call.body),
    item_order: optionalInt(call.body, 'order'),
    is_favorite: call.surface === 'rest-v1' ? optionalBoolean(call.body, 'favorite') : optionalBoolean(call.body, 'is_favorite'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Personal labels on every surface; shared labels (names on tasks) on REST v2 and api/v1. */
@Injectable()
export class LabelsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'labels.list': (call) => this.list(call, {}),
    'labels.search': (call) => this.list(call, { search: requiredString(call.query, 'query', 1024) }),
    'labels.get': (call) => this.kit.one(call, { resource: 'label', id: call.params['id'] }),
    'labels.create': (call) => {
      requiredString(call.body, 'name');
      return this.kit.created(call, { type: 'label_add', args: labelFields(call) }, 'label', (id) => ({ resource: 'label', id }));
    },
    'labels.update': (call) => {
      const id = call.params['id'];
      return this.kit.updated(call, [{ type: 'label_update', args: { id, ...labelFields(call) } }], { resource: 'label', id });
    },
    'labels.delete': async (call) => {
      await this.kit.objects.change(call, [{ type: 'label_delete', args: { id: call.params['id'], cascade: 'all' } }]);
      return noContent();
    },
    'labels.shared': (call) => this.kit.listOf(call, { resource: 'shared_labels', omit_personal: optionalBoolean(call.query, 'omit_personal') }, (label) => label.name),
    'labels.shared.rename': async (call) => {
      const args = { name_old: requiredString(call.body, 'name', 128), name_new: requiredString(call.body, 'new_name', 128) };
      await this.kit.objects.change(call, [{ type: 'label_rename', args }]);
      return noContent();
    },
    'labels.shared.remove': async (call) => {
      await this.kit.objects.change(call, [{ type: 'label_delete_occurrences', args: { name: requiredString(call.body, 'name', 128) } }]);
      return noContent();
    },
  };

  private list(call: RestCall, options: { search?: string }) {
    return this.kit.list(call, { resource: 'labels', ...options });
  }
}
