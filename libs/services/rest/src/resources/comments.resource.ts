import type { ApiComment } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { missing, optionalId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ok, ResourceKit } from './resource-kit';

/** Where a comment is: on a task or on a project, exactly one of them. */
function commentTarget(args: Readonly<Record<string, unknown>>): { task_id?: string; project_id?: string } {
  const taskId = optionalId(args, 'task_id');
  const projectId = optionalId(args, 'project_id');
  if (taskId === undefined && projectId === undefined) throw missing('task_id');
  if (taskId !== undefined && projectId !== undefined) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Send task_id or project_id, not both', { argument: 'project_id' });
  }
  return taskId === undefined ? { project_id: projectId } : { task_id: taskId };
}

/** Comments on tasks and projects, on every surface. */
@Injectable()
export class CommentsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'comments.list': (call) => this.kit.list(call, { resource: 'comments', ...commentTarget(call.query) }, (comment) => this.write(call, comment)),
    'comments.get': async (call) => ok(this.write(call, await this.kit.objects.readOne(call, { resource: 'comment', id: call.params['id'] }))),
    'comments.create': async (call) => {
      const target = commentTarget(call.body);
      const attachment = call.body['attachment'];
      const args = {
        content: requiredString(call.body, 'content', 16_384),
        ...(target.task_id === undefined ? { project_id: target.project_id } : { item_id: target.task_id }),
        ...(attachment === undefined || attachment === null ? {} : { file_attachment: attachment }),
      };
      return ok(this.write(call, await this.kit.objects.create(call, { type: 'note_add', args }, (id) => ({ resource: 'comment', id }))));
    },
    'comments.update': async (call) => {
      const id = call.params['id'];
      const args = { id, content: requiredString(call.body, 'content', 16_384) };
      const reply = await this.kit.objects.change(call, [{ type: 'note_update', args }], this.kit.dialect(call).updateAnswersObject ? { resource: 'comment', id } : null);
      return this.kit.updated(call, () => Promise.resolve(this.write(call, reply.objects[0])));
    },
    'comments.delete': async (call) => {
      await this.kit.objects.change(call, [{ type: 'note_delete', args: { id: call.params['id'] } }]);
      return noContent();
    },
  };

  private write(call: RestCall, comment: ApiComment): Record<string, unknown> {
    return this.kit.dialect(call).comment(comment);
  }
}
