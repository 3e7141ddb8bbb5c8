import { CreateSyncSchema1732190000400 } from './1732190000400-create-sync-schema';
import { CreateItems1732190000500 } from './1732190000500-create-items';
import { CreateSections1732190000600 } from './1732190000600-create-sections';

export const syncMigrations = [CreateSyncSchema1732190000400, CreateItems1732190000500, CreateSections1732190000600];
