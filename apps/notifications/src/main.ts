import 'reflect-metadata';
import { notificationsService } from '@doable/notifications';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(notificationsService);
