import { authOauthService } from '@doable/auth-oauth';
import { gatewayService } from '@doable/gateway';
import { mcpService } from '@doable/mcp';
import { notificationsService } from '@doable/notifications';
import { plansService } from '@doable/plans';
import { restService } from '@doable/rest';
import type { ServiceDefinition, ServiceName } from '@doable/shared-runtime';
import { syncService } from '@doable/sync';
import { uploadsService } from '@doable/uploads';
import { webhooksService } from '@doable/webhooks';

/** Every service, in start order: owners of data first, the gateway (the front door) last. */
export const ALL_SERVICES: readonly ServiceDefinition[] = [
  authOauthService as unknown as ServiceDefinition,
  plansService,
  notificationsService,
  uploadsService as unknown as ServiceDefinition,
  webhooksService as unknown as ServiceDefinition,
  syncService as unknown as ServiceDefinition,
  restService as unknown as ServiceDefinition,
  mcpService as unknown as ServiceDefinition,
  gatewayService as unknown as ServiceDefinition,
];

export function serviceByName(name: ServiceName): ServiceDefinition {
  const found = ALL_SERVICES.find((service) => service.name === name);
  if (!found) throw new Error(`no service named ${name}`);
  return found;
}
