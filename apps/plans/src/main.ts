import 'reflect-metadata';
import { plansService } from '@doable/plans';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(plansService);
