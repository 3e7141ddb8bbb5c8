import type { RequestSubject } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { ServiceClient } from './service-client';

/**
 * Embedded mode's half of a gateway barrier (the cluster's is nats/every-gateway.ts): the one
 * gateway lives in this process, behind `subject`, and has done what it was told when this
 * returns. No gateway running (a service started alone) means no cache that could need it.
 */
export async function askInProcessGateway<Req>(services: ServiceClient, subject: RequestSubject<Req, unknown>, request: Req): Promise<void> {
  try {
    await services.request(subject, request);
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE')) throw err;
  }
}
