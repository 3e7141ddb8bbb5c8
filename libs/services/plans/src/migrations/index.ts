import { CreatePlansSchema1732190000100 } from './1732190000100-create-plans-schema';

export const plansMigrations = [CreatePlansSchema1732190000100];
