import { CreateUploadsSchema1732190000300 } from './1732190000300-create-uploads-schema';
import { UploadRecords1732190002200 } from './1732190002200-upload-records';
import { OutboxTraceContext1764300000000 } from './1764300000000-outbox-trace-context';

export const uploadsMigrations = [CreateUploadsSchema1732190000300, UploadRecords1732190002200, OutboxTraceContext1764300000000];
