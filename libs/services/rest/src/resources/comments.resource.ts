import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { missing, optionalId, requiredString } from '../call/rest-args';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ResourceKit } from './resource-kit';

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
    'comments.list': (call) => this.kit.list(call, { resource: 'comments', ...commentTarget(call.query) }),
    'comments.get': (call) => this.kit.one(call, { resource: 'comment', id: call.params['id'] }),
    'comments.create': (call) => {
      const target = commentTarget(call.body);
      const attachment = call.body['attachment'];
      const args = {
        content: requiredString(call.body, 'content', 16_384),
        ...(target.task_id === undefined ? { project_id: target.project_id } : { item_id: target.task_id }),
        ...(attachment === undefined || attachment === null ? {} : { file_attachment: attachment }),
      };
      return this.kit.created(call, { type: 'note_add', args }, 'comment', (id) => ({ resource: 'comment', id }));
    },
    'comments.update': (call) => {
      const id = call.params['id'];
      const args = { id, content: requiredString(call.body, 'content', 16_384) };
      return this.kit.updated(call, [{ type: 'note_update', args }], { resource: 'comment', id });
    },
    'comments.delete': async (call) => {
      await this.kit.objects.change(call, [{ type: 'note_delete', args: { id: call.params['id'] } }]);
      return noContent();
    },
  };
}
