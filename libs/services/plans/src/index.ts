export { plansService } from './plans.service-definition';
export { plansMigrations } from './migrations';
export { PlanAssignments, planNames } from './assignments/plan-assignments';
export { parseCatalogue, readCatalogueFile } from './catalogue/catalogue-file';
export { WorkspacePlanAssignments, workspacePlanNames } from './assignments/workspace-plan-assignments';
export { parsePlansFile, parseWorkspaceCatalogue, readPlansFile, type PlansFile } from './catalogue/catalogue-file';
