import { CreateSyncSchema1732190000400 } from './1732190000400-create-sync-schema';

export const syncMigrations = [CreateSyncSchema1732190000400];
