import { CreateUploadsSchema1732190000300 } from './1732190000300-create-uploads-schema';
import { UploadRecords1732190002200 } from './1732190002200-upload-records';

export const uploadsMigrations = [CreateUploadsSchema1732190000300, UploadRecords1732190002200];
