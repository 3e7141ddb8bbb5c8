import 'reflect-metadata';
import { mcpService } from '@doable/mcp';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(mcpService);
