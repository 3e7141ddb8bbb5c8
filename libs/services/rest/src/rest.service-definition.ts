import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';

/** The REST dialects arrive with their own issue; the service keeps no data of its own. */
@Module({})
export class RestModule {}

/** REST v1, REST v2 and api/v1 REST as dialects over the sync engine (stateless). */
export const restService = {
  name: 'rest',
  defaultPort: 3002,
  env: z.object({}),
  imports: () => [RestModule],
} satisfies ServiceDefinition;
