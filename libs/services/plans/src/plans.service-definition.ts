import { BUILTIN_CATALOGUE } from '@doable/contracts-plans';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { type DynamicModule, Module } from '@nestjs/common';
import { z } from 'zod';
import { readCatalogueFile } from './catalogue/catalogue-file';
import { plansMigrations } from './migrations';
import { PlansRpcController } from './plans.rpc-controller';
import { PLAN_CATALOGUE, PlansService } from './plans.service';

@Module({})
export class PlansModule {
  /** The catalogue is read (and checked) once, at start: a faulty file stops the service with the reason. */
  static withCatalogue(file: string | undefined): DynamicModule {
    return {
      module: PlansModule,
      controllers: [PlansRpcController],
      providers: [PlansService, { provide: PLAN_CATALOGUE, useFactory: () => (file ? readCatalogueFile(file) : BUILTIN_CATALOGUE) }],
    };
  }
}

/** The plan catalogue, each user's plan, and the `user_plan_limits` resource. */
export const plansService = {
  name: 'plans',
  defaultPort: 3006,
  env: z.object({
    /** The operator's catalogue (JSON, see catalogue/catalogue-file.ts); unset: the built-in free, pro and business. */
    PLANS_FILE: z.string().min(1).optional(),
  }),
  database: { schema: 'plans', migrations: plansMigrations },
  imports: (config) => [PlansModule.withCatalogue(config.PLANS_FILE)],
} satisfies ServiceDefinition<z.ZodObject<{ PLANS_FILE: z.ZodOptional<z.ZodString> }>>;
