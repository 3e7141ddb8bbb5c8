import { type ServiceDefinition } from '@doable/shared-runtime';
import { env } from '@doable/shared-config';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { uploadsMigrations } from './migrations';

/** Upload handling arrives with its own issue; the service owns its schema and storage settings now. */
@Module({})
export class UploadsModule {}

/** File records and file bytes (a local folder embedded; object storage in a cluster). */
export const uploadsService = {
  name: 'uploads',
  defaultPort: 3004,
  env: z.object({
    UPLOADS_DIR: z.string().min(1).default('./data/uploads'),
    UPLOAD_MAX_MB: env.positiveInt(100),
  }),
  database: { schema: 'uploads', migrations: uploadsMigrations },
  imports: () => [UploadsModule],
} satisfies ServiceDefinition;
