import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { clearCookie, parseCookies, serializeCookie } from './cookies';

export const SESSION_COOKIE = 'doable_session';
export const CSRF_COOKIE = 'doable_csrf';

/** Sent with every page: no caching, no framing, no scripts, no referrer carrying codes away. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/**
 * One browser or OAuth-client call as auth-oauth sees it: query and body fields as strings,
 * cookies, the caller's origin; and the cookies the reply will set. It has a folder of its own
 * because the pages (web/), the OAuth endpoints and the webhook endpoints all answer through it.
 */
export class WebExchange {
  readonly cookies: Record<string, string>;
  readonly origin: string;
  readonly secure: boolean;
  private readonly setCookies: string[] = [];
  private csrfToken?: string;

  constructor(readonly request: EdgeRequest) {
    this.cookies = parseCookies(request.headers?.['cookie']);
    this.origin = request.origin ?? 'http://localhost';
    this.secure = this.origin.startsWith('https:');
  }

  get method(): EdgeRequest['method'] {
    return this.request.method;
  }

  /** The path without a trailing slash. */
  get path(): string {
    return this.request.path.length > 1 ? this.request.path.replace(/\/+$/, '') : this.request.path;
  }

  header(name: string): string | undefined {
    return this.request.headers?.[name];
  }

  query(name: string): string | undefined {
    return str(this.request.query[name]);
  }

  /** A body field (form or JSON), as a string when it is one. */
  field(name: string): string | undefined {
    const body = this.request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const value = (body as Record<string, unknown>)[name];
    return typeof value === 'number' ? String(value) : str(value);
  }

  /** A body field, else the query parameter of that name (OAuth clients use either). */
  param(name: string): string | undefined {
    return this.field(name) ?? this.query(name);
  }

  setCookie(name: string, value: string, maxAgeSeconds?: number): void {
    this.setCookies.push(serializeCookie(name, value, { maxAgeSeconds, secure: this.secure }));
  }

  clearCookie(name: string): void {
    this.setCookies.push(clearCookie(name, this.secure));
  }

  /** The CSRF token for forms on this page: the double-submit cookie's value, made when absent. */
  csrf(): string {
    if (this.csrfToken) return this.csrfToken;
    const existing = this.cookies[CSRF_COOKIE];
    if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) this.csrfToken = existing;
    else {
      this.csrfToken = randomBytes(24).toString('base64url');
      this.setCookie(CSRF_COOKIE, this.csrfToken);
    }
    return this.csrfToken;
  }

  /**
   * A form post is genuine when its hidden token equals the CSRF cookie (which another site can
   * neither read nor set) and, when the browser names an Origin, that origin is ours.
   */
  csrfValid(): boolean {
    const origin = this.header('origin');
    if (origin !== undefined && origin !== 'null' && origin !== this.origin) return false;
    const cookie = this.cookies[CSRF_COOKIE];
    const sent = this.field('csrf');
    if (!cookie || !sent) return false;
    const a = Buffer.from(cookie);
    const b = Buffer.from(sent);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  html(status: number, page: string): EdgeReply {
    return { status, body: page, contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS, cookies: this.setCookies };
  }

  /** 303: the browser follows with a GET, whatever the method was. */
  redirect(location: string): EdgeReply {
    return { status: 303, body: null, headers: { ...PAGE_HEADERS, Location: location }, cookies: this.setCookies };
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): EdgeReply {
    return { status, body, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers }, cookies: this.setCookies };
  }
}
