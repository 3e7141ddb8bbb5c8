import { CreatePlansSchema1732190000100 } from './1732190000100-create-plans-schema';
import { PlanCatalogue1732190001700 } from './1732190001700-plan-catalogue';

export const plansMigrations = [CreatePlansSchema1732190000100, PlanCatalogue1732190001700];
