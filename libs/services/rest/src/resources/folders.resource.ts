import { Injectable } from '@nestjs/common';
import { fieldsSent, optionalId, requiredId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import { single } from '../objects/sync-objects.client';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ok, ResourceKit } from './resource-kit';

/** The fields folder_add and folder_update take besides their ids (sdk 17 AddFolderArgs, UpdateFolderArgs). */
const FOLDER_FIELDS = ['name', 'default_order', 'child_order'] as const;

/** api/v1 folders (sdk 17 FolderClient): a workspace's project folders, through the folder sync commands and object queries. */
@Injectable()
export class FoldersResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    // sdk 17 always names the workspace; without one, the folders of all the caller's workspaces.
    'folders.list': async (call) => this.kit.listOf(call, { resource: 'folders', workspace_id: optionalId(call.query, 'workspace_id') }, (folder) => folder),
    'folders.get': async (call) => ok(await this.kit.objects.readOne(call, { resource: 'folder', id: call.params['id'] })),
    'folders.create': async (call) => {
      requiredString(call.body, 'name');
      const args = { workspace_id: requiredId(call.body, 'workspace_id'), ...fieldsSent(call.body, FOLDER_FIELDS) };
      return ok(await this.kit.objects.create(call, { type: 'folder_add', args }, (id) => ({ resource: 'folder', id })));
    },
    'folders.update': async (call) => {
      const id = call.params['id'];
      return ok(single(await this.kit.objects.change(call, [{ type: 'folder_update', args: { id, ...fieldsSent(call.body, FOLDER_FIELDS) } }], { resource: 'folder', id })));
    },
    'folders.delete': (call) => this.delete(call),
  };

  private async delete(call: RestCall) {
    await this.kit.objects.change(call, [{ type: 'folder_delete', args: { id: call.params['id'] } }]);
    return noContent();
  }
}
