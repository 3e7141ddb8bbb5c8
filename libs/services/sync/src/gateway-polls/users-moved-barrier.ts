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

/**
 * Cluster: the moved users' home gateways (and every gateway without a home: unnamed, or of a
 * release before homes), each on its own subject with its own users; see GatewayMembership for
 * why that reaches whichever gateway may hold their answers.
 */
export class NatsUsersMovedBarrier implements UsersMovedBarrier {
  private readonly gateways: EveryGateway;

  constructor(private readonly options: Omit<EveryGatewayOptions, 'connectionName'> & { readonly name: string }) {
    this.gateways = new EveryGateway({ ...options, connectionName: `${options.name}-gateway-polls` });
  }

  moved(userIds: readonly string[]): Promise<void> {
    return this.gateways.askHomes(
      (instance) => GatewayPolls.gatewayUsersMovedSubject(this.options.subjectPrefix, instance),
      userIds,
      (theirs) => JSON.stringify({ userIds: theirs }),
    );
  }

  close(): Promise<void> {
    return this.gateways.close();
  }
}
