import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's avatar (sync-interface §2, collaborators): the id of the image the uploads service
 * made the sizes of (`<image_id>_big.jpg` and its siblings). Null: no avatar. Sync keeps only
 * the id; the bytes are the uploads service's.
 */
export class Avatars1732190002493 implements MigrationInterface {
  name = 'Avatars1732190002493';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users ADD COLUMN image_id text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users DROP COLUMN image_id`);
  }
}
