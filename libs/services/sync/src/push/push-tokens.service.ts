import { homeKey } from '@doable/contracts-common';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { PushKeyRepository } from './push-key.repository';
import { signPushToken, verifyPushToken, websocketUrl } from './push-token';

/** Where users reach the product, for a `websocket_url` asked for without an origin (a backup). */
export const PUSH_PUBLIC_URL = Symbol('PUSH_PUBLIC_URL');

/** Push tokens, signed with the key sync's migration made (sync.push_key), read once per process. */
@Injectable()
export class PushTokens {
  private key?: Promise<string>;

  constructor(
    private readonly database: Database,
    private readonly keys: PushKeyRepository,
    @Inject(PUSH_PUBLIC_URL) private readonly publicUrl: string,
  ) {}

  /** The user object's `websocket_url` for a caller that reached us at `origin`. */
  async websocketUrl(userId: string, origin: string | undefined): Promise<string> {
    return websocketUrl(origin ?? this.publicUrl, signPushToken(await this.signingKey(), userId), homeKey(userId));
  }

  /** The origin links made for a caller point at: theirs, or PUBLIC_URL without one (the user object's avatar URLs too). */
  originFor(origin: string | undefined): string {
    return origin ?? this.publicUrl;
  }

  async verify(token: string): Promise<string | undefined> {
    return verifyPushToken(await this.signingKey(), token);
  }

  private signingKey(): Promise<string> {
    this.key ??= this.keys.key(this.database.dataSource.manager);
    // A failed read (the database down) is tried again by the next caller, not remembered.
    this.key.catch(() => (this.key = undefined));
    return this.key;
  }
}
