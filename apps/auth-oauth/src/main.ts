import 'reflect-metadata';
import { authOauthService } from '@doable/auth-oauth';
import { runService } from '@doable/shared-runtime';

// `node main.js [serve|migrate|revert]`: the service, or its one-shot migration step.
void runService(authOauthService);
