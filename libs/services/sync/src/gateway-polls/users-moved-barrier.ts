import { GatewayPolls } from '@doable/contracts-sync';
import { askInProcessGateway, EveryGateway, type EveryGatewayOptions, type ServiceClient } from '@doable/shared-transport';

/**
 * What a commit that moved users' marks waits for before it is answered: no gateway still holds
 * a "nothing new" answer for those users (contracts-sync gateway-polls.ts).
 */
export interface UsersMovedBarrier {
  moved(userIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Embedded mode: the one gateway is in this process, behind the `usersMoved` request. */
export class InProcessUsersMovedBarrier implements UsersMovedBarrier {
  constructor(private readonly services: ServiceClient) {}

  moved(userIds: readonly string[]): Promise<void> {
    return askInProcessGateway(this.services, GatewayPolls.usersMoved, { userIds: [...userIds] });
  }

  async close(): Promise<void> {}
}

/** Cluster: every gateway registered in the gateway registry, each on its own subject. */
export class NatsUsersMovedBarrier implements UsersMovedBarrier {
  private readonly gateways: EveryGateway;

  constructor(private readonly options: Omit<EveryGatewayOptions, 'connectionName'> & { readonly name: string }) {
    this.gateways = new EveryGateway({ ...options, connectionName: `${options.name}-gateway-polls` });
  }

  moved(userIds: readonly string[]): Promise<void> {
    return this.gateways.ask((instance) => GatewayPolls.gatewayUsersMovedSubject(this.options.subjectPrefix, instance), JSON.stringify({ userIds }));
  }

  close(): Promise<void> {
    return this.gateways.close();
  }
}
