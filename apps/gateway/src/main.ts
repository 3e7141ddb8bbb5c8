import 'reflect-metadata';
import { gatewayService } from '@doable/gateway';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(gatewayService);
