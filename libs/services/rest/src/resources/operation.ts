import type { EdgeReply } from '@doable/contracts-common';
import type { RestCall } from '../call/rest-call';

export type OperationHandler = (call: RestCall) => Promise<EdgeReply>;

/** A resource's handlers by operation name (the names of `REST_ENDPOINTS`). */
export interface RestResource {
  readonly operations: Readonly<Record<string, OperationHandler>>;
}
