import { Injectable } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { AppSecretBox } from '../secrets/app-secret-box';

/** The cookie that carries a log-in between the password and the code. */
export const PENDING_LOGIN_COOKIE = 'doable_2fa';
/** Minutes to enter the code once the password was right. */
export const PENDING_LOGIN_SECONDS = 5 * 60;

/**
 * "The password was right for this account": not a session (no page, no API takes it), only
 * the second step's form does. Sealed (AES-256-GCM, authenticated) with the service's key, so
 * it can be neither read nor forged, and it expires after PENDING_LOGIN_SECONDS.
 */
@Injectable()
export class PendingLogin {
  constructor(private readonly box: AppSecretBox) {}

  async begin(web: WebExchange, userId: string, nowMs = Date.now()): Promise<void> {
    web.setCookie(PENDING_LOGIN_COOKIE, await this.box.seal(`2fa.${userId}.${nowMs + PENDING_LOGIN_SECONDS * 1000}`), PENDING_LOGIN_SECONDS);
  }

  /** The user whose password was right, if the cookie is genuine and fresh. */
  async userOf(web: WebExchange, nowMs = Date.now()): Promise<string | undefined> {
    const cookie = web.cookies[PENDING_LOGIN_COOKIE];
    if (!cookie || cookie.length > 512) return undefined;
    const opened = await this.box.open(cookie);
    const [kind, userId, expires] = opened?.split('.') ?? [];
    if (kind !== '2fa' || !/^\d+$/.test(userId ?? '') || !(Number(expires) > nowMs)) return undefined;
    return userId;
  }

  end(web: WebExchange): void {
    web.clearCookie(PENDING_LOGIN_COOKIE);
  }
}
