import { AuthEvents } from '@doable/contracts-auth';
import type { PlanCatalogue, UserPlanLimits, WorkspacePlanCatalogue } from '@doable/contracts-plans';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PlanAssignments } from './assignments/plan-assignments';
import { publishCatalogue } from './catalogue/catalogue-store';
import { publishWorkspaceCatalogue } from './catalogue/workspace-catalogue-store';

export const PLAN_CATALOGUE = Symbol('PLAN_CATALOGUE');
export const WORKSPACE_PLAN_CATALOGUE = Symbol('WORKSPACE_PLAN_CATALOGUE');

/**
 * The plan catalogues and each user's and workspace's plan. At start it publishes the catalogues
 * it was given (announcing changed plans to their users and workspaces); every new account gets
 * the default plan. A workspace is on the default workspace plan until the operator assigns one.
 */
@Injectable()
export class PlansService implements OnApplicationBootstrap {
  private readonly assignments = new PlanAssignments();

  constructor(
    private readonly database: Database,
    consumers: EventConsumers,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    @Inject(WORKSPACE_PLAN_CATALOGUE) private readonly workspaceCatalogue: WorkspacePlanCatalogue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    consumers.on('assign-default-plan', AuthEvents.userCreated, (user, tx) => this.assignments.assignDefault(tx, user.userId));
  }

  async onApplicationBootstrap(): Promise<void> {
    const published = await this.database.transaction((tx) => publishCatalogue(tx, this.catalogue));
    const names = this.catalogue.plans.map((plan) => plan.plan_name).join(', ');
    this.logger.info({ plans: names, default: this.catalogue.defaultPlan, ...published }, 'plan catalogue published');
    const workspaces = await this.database.transaction((tx) => publishWorkspaceCatalogue(tx, this.workspaceCatalogue));
    const workspaceNames = this.workspaceCatalogue.plans.map((plan) => plan.info.plan_name).join(', ');
    this.logger.info({ plans: workspaceNames, default: this.workspaceCatalogue.defaultPlan, ...workspaces }, 'workspace plan catalogue published');
  }

  limitsFor(userId: string): Promise<UserPlanLimits> {
    return this.assignments.limitsOf(this.database.dataSource.manager, userId);
  }
}
