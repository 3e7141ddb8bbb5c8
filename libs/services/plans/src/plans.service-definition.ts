import { BUILTIN_CATALOGUE, BUILTIN_WORKSPACE_CATALOGUE } from '@doable/contracts-plans';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { type DynamicModule, Module } from '@nestjs/common';
import { z } from 'zod';
import { type PlansFile, readPlansFile } from './catalogue/catalogue-file';
import { plansMigrations } from './migrations';
import { PlansRpcController } from './plans.rpc-controller';
import { PLAN_CATALOGUE, PlansService, WORKSPACE_PLAN_CATALOGUE } from './plans.service';

const PLANS_FILE_CONTENT = Symbol('PLANS_FILE_CONTENT');

@Module({})
export class PlansModule {
  /** The catalogue is read (and checked) once, at start: a faulty file stops the service with the reason. */
  static withCatalogue(file: string | undefined): DynamicModule {
    return {
      module: PlansModule,
      controllers: [PlansRpcController],
      providers: [
        PlansService,
        { provide: PLANS_FILE_CONTENT, useFactory: (): PlansFile => (file ? readPlansFile(file) : { users: BUILTIN_CATALOGUE, workspaces: BUILTIN_WORKSPACE_CATALOGUE }) },
        { provide: PLAN_CATALOGUE, useFactory: (plans: PlansFile) => plans.users, inject: [PLANS_FILE_CONTENT] },
        { provide: WORKSPACE_PLAN_CATALOGUE, useFactory: (plans: PlansFile) => plans.workspaces, inject: [PLANS_FILE_CONTENT] },
      ],
    };
  }
}

/** The plan catalogues, each user's and workspace's plan, and the `user_plan_limits` resource. */
export const plansService = {
  name: 'plans',
  defaultPort: 3006,
  env: z.object({
    /** The operator's catalogue (JSON, see catalogue/catalogue-file.ts); unset: the built-in free, pro and business, and the built-in workspace plans. */
    PLANS_FILE: z.string().min(1).optional(),
  }),
  database: { schema: 'plans', migrations: plansMigrations },
  imports: (config) => [PlansModule.withCatalogue(config.PLANS_FILE)],
} satisfies ServiceDefinition<z.ZodObject<{ PLANS_FILE: z.ZodOptional<z.ZodString> }>>;
