import 'reflect-metadata';
import { uploadsService } from '@doable/uploads';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(uploadsService);
