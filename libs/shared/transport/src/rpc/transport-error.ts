import { DomainError, isWireError } from '@doable/shared-errors';
import { TimeoutError } from 'rxjs';
import { ConnectionLostError, ReplicaLostError } from '../nats/replica-beats';

/**
 * What a failed request to another service means to the caller. Errors that crossed the
 * wire as codes keep their code; a timeout, "no responders" or a lost connection means the
 * service is unavailable (503 at the edge), whatever the transport's own error looks like.
 */
export function toCallerError(err: unknown, subject: string): DomainError {
  if (err instanceof DomainError) return err;
  if (isWireError(err)) return DomainError.fromWire(err);
  // nats.js refuses, before sending, a message over the server's max_payload.
  if (err instanceof Error && /max_payload/.test(err.message)) {
    return new DomainError('PAYLOAD_TOO_LARGE', 'The request is larger than the message bus accepts, even compressed', { subject });
  }
  if (err instanceof ReplicaLostError) return new DomainError('SERVICE_UNAVAILABLE', `the replica serving ${subject} stopped answering`, { subject, reason: 'replica-lost' });
  if (err instanceof ConnectionLostError) return new DomainError('SERVICE_UNAVAILABLE', `the message bus connection dropped while ${subject} was in flight`, { subject, reason: 'connection-lost' });
  if (err instanceof TimeoutError) return new DomainError('SERVICE_UNAVAILABLE', `no reply from ${subject} in time`, { subject, reason: 'timeout' });
  return new DomainError('SERVICE_UNAVAILABLE', `${subject} is unavailable`, { subject, reason: 'unreachable' });
}
