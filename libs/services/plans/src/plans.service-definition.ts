import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { plansMigrations } from './migrations';
import { PlansRpcController } from './plans.rpc-controller';
import { PlansService } from './plans.service';

@Module({ controllers: [PlansRpcController], providers: [PlansService] })
export class PlansModule {}

/** The plan catalogue, each user's plan, and the `user_plan_limits` resource. */
export const plansService = {
  name: 'plans',
  defaultPort: 3006,
  env: z.object({}),
  database: { schema: 'plans', migrations: plansMigrations },
  imports: () => [PlansModule],
} satisfies ServiceDefinition;
