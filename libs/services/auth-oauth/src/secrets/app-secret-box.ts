import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';

/** APP_SECRET_KEY, or '' for the key the migration made (auth.secret_key). */
export const APP_SECRET_KEY = Symbol('APP_SECRET_KEY');

/**
 * Keeps client secrets recoverable for signing webhooks, and only for that: AES-256-GCM under a
 * key from the environment (APP_SECRET_KEY) or, when none is set, the one the migration made in
 * the database (so every replica agrees). The stored form is `v1.<iv>.<tag>.<ciphertext>`, base64url;
 * a tampered or wrongly-keyed value fails to open rather than yielding garbage.
 */
@Injectable()
export class AppSecretBox {
  private key?: Promise<Buffer>;

  constructor(
    private readonly database: Database,
    @Inject(APP_SECRET_KEY) private readonly configuredKey: string,
  ) {}

  async seal(secret: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** The secret, or undefined when the value does not open under the current key. */
  async open(sealed: string): Promise<string | undefined> {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private keyBytes(): Promise<Buffer> {
    this.key ??= (async () => {
      const material = this.configuredKey || (await this.database.query<Array<{ secret: string }>>(`SELECT secret FROM auth.secret_key WHERE id = 1`))[0]?.secret;
      if (!material) throw new Error('auth.secret_key is missing: run the auth-oauth migrations');
      // Any length of key material becomes the 32 bytes AES-256 takes.
      return createHash('sha256').update(material).digest();
    })();
    return this.key;
  }
}
