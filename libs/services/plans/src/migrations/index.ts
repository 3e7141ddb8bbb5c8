import { CreatePlansSchema1732190000100 } from './1732190000100-create-plans-schema';
import { PlanCatalogue1732190001700 } from './1732190001700-plan-catalogue';
import { WorkspacePlans1732190001900 } from './1732190001900-workspace-plans';
import { OutboxTraceContext1764300000000 } from './1764300000000-outbox-trace-context';

export const plansMigrations = [CreatePlansSchema1732190000100, PlanCatalogue1732190001700, WorkspacePlans1732190001900, OutboxTraceContext1764300000000];
