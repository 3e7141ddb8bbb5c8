import { CreateAuthSchema1732190000000 } from './1732190000000-create-auth-schema';

/** In order of application. */
export const authMigrations = [CreateAuthSchema1732190000000];
