import 'reflect-metadata';
import { restService } from '@doable/rest';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(restService);
