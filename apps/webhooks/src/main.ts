import 'reflect-metadata';
import { webhooksService } from '@doable/webhooks';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(webhooksService);
