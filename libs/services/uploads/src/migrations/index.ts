import { CreateUploadsSchema1732190000300 } from './1732190000300-create-uploads-schema';

export const uploadsMigrations = [CreateUploadsSchema1732190000300];
