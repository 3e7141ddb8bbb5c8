import { type ServiceDefinition } from '@doable/shared-runtime';
import { env } from '@doable/shared-config';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { uploadsMigrations } from './migrations';
import { OrphanSweep } from './orphan-sweep';
import { AvatarsService } from './avatars/avatars.service';
import { UploadRepository } from './upload.repository';
import { UploadsRpcController } from './uploads.rpc-controller';
import { UPLOADS_SETTINGS, UploadsService, type UploadsSettings } from './uploads.service';

const uploadsEnv = z.object({
  /** The server's ceiling on one file in MiB, whatever a plan's upload_limit_mb says. */
  UPLOAD_MAX_MB: env.positiveInt(100),
  /** Signs file URLs (an HMAC of the upload id). Empty: a key made by the migration, kept in the database. */
  UPLOADS_URL_KEY: z.union([z.literal(''), z.string().min(32)]).default(''),
});

function uploadsModule(config: z.infer<typeof uploadsEnv>) {
  @Module({
    controllers: [UploadsRpcController],
    providers: [
      UploadRepository,
      UploadsService,
      AvatarsService,
      OrphanSweep,
      { provide: UPLOADS_SETTINGS, useValue: { maxMb: config.UPLOAD_MAX_MB, urlKey: config.UPLOADS_URL_KEY } satisfies UploadsSettings },
    ],
  })
  class UploadsModule {}
  return UploadsModule;
}

/** File records and file bytes (a local folder embedded; object storage in a cluster). */
export const uploadsService = {
  name: 'uploads',
  defaultPort: 3004,
  env: uploadsEnv,
  database: { schema: 'uploads', migrations: uploadsMigrations },
  imports: (config) => [uploadsModule(config)],
} satisfies ServiceDefinition<typeof uploadsEnv>;
