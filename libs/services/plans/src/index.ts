export { plansService } from './plans.service-definition';
export { plansMigrations } from './migrations';
export { PlanAssignments, planNames } from './assignments/plan-assignments';
export { parseCatalogue, readCatalogueFile } from './catalogue/catalogue-file';
