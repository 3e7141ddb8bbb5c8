import 'reflect-metadata';
import { syncService } from '@doable/sync';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(syncService);
