import { randomBytes } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { type AccountService } from '../src/accounts/account.service';
import { authMigrations } from '../src/migrations';
import { WebExchange } from '../src/exchange/web-exchange';
import { authEdgeFixture, pageRequest, TEST_CSRF } from '../testing/auth-edge.fixture';
import type { AccountPages } from '../src/web/account-pages';
import { type AuthEdgeRpcController } from '../src/rpc/auth-edge.rpc-controller';
import { LOCK_SECONDS, MAX_CODE_FAILURES, type TwoFactorService } from '../src/two-factor/two-factor.service';
import { codeAt, RECOVERY_CODE_COUNT, stepAt } from '../src/two-factor/totp';


const ORIGIN = 'http://doable.test';
const PASSWORD = 'a sturdy passphrase';
const STEP = 30_000;

/**
 * TOTP verification against a real PostgreSQL: the ±1 step window, replay, recovery codes once,
 * the lock; then the pages, the first-generation log-in and OAuth consent through the edge
 * handler the gateway reaches over NATS.
 */
describe('two-factor log-in (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let accounts: AccountService;
  let twoFactor: TwoFactorService;
  let edge: AuthEdgeRpcController;
  let pages: AccountPages;

  beforeAll(async () => {
    database = await createTestDatabase('two_factor');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    ({ edge, accounts, twoFactor, pages } = authEdgeFixture(db));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => dataSource.query<T[]>(text, params);

  async function newAccount(): Promise<{ userId: string; email: string }> {
    const email = `tf-${randomBytes(4).toString('hex')}@example.test`;
    const { userId } = await accounts.create({ email, fullName: 'Two Factor', password: PASSWORD, timezone: 'UTC' });
    return { userId, email };
  }

  /** An enrolled account, confirmed with the previous step's code so that now's code is unused. */
  async function enrolled(now = Date.now()): Promise<{ userId: string; email: string; secret: string; recovery: string[] }> {
    const account = await newAccount();
    const { secret } = (await twoFactor.startEnrolment(account.userId, account.email))!;
    const confirmed = await twoFactor.confirmEnrolment(account.userId, codeAt(secret, now - STEP), now);
    expect(confirmed.verdict).toBe('ok');
    return { ...account, secret, recovery: confirmed.recoveryCodes! };
  }

  describe('verification', () => {
    it('turns on only after a current code, with ten recovery codes; the secret is sealed and the codes hashed', async () => {
      const { userId, email } = await newAccount();
      const enrolment = (await twoFactor.startEnrolment(userId, email))!;
      expect(enrolment.uri).toBe(`otpauth://totp/Doable:${encodeURIComponent(email)}?issuer=Doable&secret=${enrolment.secret}&algorithm=SHA1&digits=6&period=30`);
      expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
      await expect(twoFactor.isEnabled(userId)).resolves.toBe(false);
      const now = Date.now();
      await expect(twoFactor.confirmEnrolment(userId, codeAt(enrolment.secret, now - 3 * STEP), now)).resolves.toEqual({ verdict: 'wrong' });
      await expect(twoFactor.isEnabled(userId)).resolves.toBe(false);
      const { verdict, recoveryCodes } = await twoFactor.confirmEnrolment(userId, codeAt(enrolment.secret, now), now);
      expect(verdict).toBe('ok');
      expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
      await expect(twoFactor.isEnabled(userId)).resolves.toBe(true);
      const [row] = await sql<{ secret_sealed: string }>('SELECT secret_sealed FROM auth.two_factor WHERE user_id = $1', [userId]);
      expect(row.secret_sealed).toMatch(/^v1\./);
      expect(row.secret_sealed).not.toContain(enrolment.secret);
      const stored = (await sql<{ code_hash: string }>('SELECT code_hash FROM auth.two_factor_recovery_codes WHERE user_id = $1', [userId])).map((r) => r.code_hash);
      expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
      for (const code of recoveryCodes!) expect(stored.join()).not.toContain(code.replace('-', ''));
      // Enrolled: a second enrolment is refused until 2FA is turned off.
      await expect(twoFactor.startEnrolment(userId, email)).resolves.toBeUndefined();
    });

    it('accepts codes within one step either side and refuses two steps away', async () => {
      const now = Date.now();
      const { userId, secret } = await enrolled(now - 10 * STEP);
      await expect(twoFactor.verify(userId, codeAt(secret, now - 2 * STEP), now)).resolves.toBe('wrong');
      await expect(twoFactor.verify(userId, codeAt(secret, now + 2 * STEP), now)).resolves.toBe('wrong');
      await expect(twoFactor.verify(userId, codeAt(secret, now - STEP), now)).resolves.toBe('ok');
      await expect(twoFactor.verify(userId, codeAt(secret, now + STEP), now)).resolves.toBe('ok');
      await expect(twoFactor.verify(userId, 'not a code', now)).resolves.toBe('wrong');
    });

    it('refuses a code in a step already used (replay), and any earlier step', async () => {
      const now = Date.now();
      const { userId, secret } = await enrolled(now - 10 * STEP);
      const code = codeAt(secret, now);
      await expect(twoFactor.verify(userId, code, now)).resolves.toBe('ok');
      await expect(twoFactor.verify(userId, code, now)).resolves.toBe('wrong');
      await expect(twoFactor.verify(userId, codeAt(secret, now - STEP), now)).resolves.toBe('wrong');
      // Spaces as apps show them are fine; the next step is a new code.
      const next = codeAt(secret, now + STEP);
      await expect(twoFactor.verify(userId, `${next.slice(0, 3)} ${next.slice(3)}`, now)).resolves.toBe('ok');
      const [row] = await sql<{ last_step: string }>('SELECT last_step::text FROM auth.two_factor WHERE user_id = $1', [userId]);
      expect(Number(row.last_step)).toBe(stepAt(now) + 1);
    });

    it('takes each recovery code once, in any case and with or without its dash', async () => {
      const { userId, recovery } = await enrolled();
      expect(recovery[0]).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      await expect(twoFactor.verify(userId, recovery[0].toLowerCase().replace('-', ''))).resolves.toBe('ok');
      await expect(twoFactor.verify(userId, recovery[0])).resolves.toBe('wrong');
      await expect(twoFactor.recoveryCodesLeft(userId)).resolves.toBe(RECOVERY_CODE_COUNT - 1);
      await expect(twoFactor.verify(userId, recovery[1])).resolves.toBe('ok');
    });

    it(`locks the account's second factor after ${MAX_CODE_FAILURES} wrong codes, even against the right one`, async () => {
      const now = Date.now();
      const { userId, secret, recovery } = await enrolled(now - 10 * STEP);
      for (let i = 1; i < MAX_CODE_FAILURES; i++) await expect(twoFactor.verify(userId, '000000', now)).resolves.toBe('wrong');
      await expect(twoFactor.verify(userId, '000000', now)).resolves.toBe('locked');
      await expect(twoFactor.verify(userId, codeAt(secret, now), now)).resolves.toBe('locked');
      await expect(twoFactor.verify(userId, recovery[0], now)).resolves.toBe('locked');
      const [row] = await sql<{ seconds: number }>('SELECT extract(epoch FROM locked_until - now())::int AS seconds FROM auth.two_factor WHERE user_id = $1', [userId]);
      expect(row.seconds).toBeGreaterThan(LOCK_SECONDS - 60);
      // Once the lock has run out, the right code works again and the count starts anew.
      await sql(`UPDATE auth.two_factor SET locked_until = now() - interval '1 second' WHERE user_id = $1`, [userId]);
      await expect(twoFactor.verify(userId, codeAt(secret, now), now)).resolves.toBe('ok');
      await expect(twoFactor.verify(userId, '000000', now)).resolves.toBe('wrong');
    });

    it(`checks at most ${MAX_CODE_FAILURES} codes of a parallel burst; the right one after them is refused`, async () => {
      const now = Date.now();
      const { userId, secret } = await enrolled(now - 10 * STEP);
      // Each code compared opens the sealed secret once: the count of looks, however the burst interleaves.
      const opened = jest.spyOn((twoFactor as unknown as { box: { open(sealed: string): Promise<string | undefined> } }).box, 'open');
      try {
        const verdicts = await Promise.all(Array.from({ length: 12 }, (_, i) => twoFactor.verify(userId, String(100000 + i), now)));
        expect(opened).toHaveBeenCalledTimes(MAX_CODE_FAILURES);
        expect(verdicts.filter((verdict) => verdict === 'wrong')).toHaveLength(MAX_CODE_FAILURES - 1);
        expect(verdicts.filter((verdict) => verdict === 'locked')).toHaveLength(12 - (MAX_CODE_FAILURES - 1));
      } finally {
        opened.mockRestore();
      }
      await expect(twoFactor.verify(userId, codeAt(secret, now), now)).resolves.toBe('locked');
    });

    it('turns off only with a current code or a recovery code', async () => {
      const now = Date.now();
      const { userId, recovery } = await enrolled(now);
      await expect(twoFactor.disable(userId, '123456', now)).resolves.toBe('wrong');
      await expect(twoFactor.isEnabled(userId)).resolves.toBe(true);
      await expect(twoFactor.disable(userId, recovery[3], now)).resolves.toBe('ok');
      await expect(twoFactor.isEnabled(userId)).resolves.toBe(false);
      await expect(sql('SELECT 1 FROM auth.two_factor_recovery_codes WHERE user_id = $1', [userId])).resolves.toHaveLength(0);
    });
  });

  describe('through the edge', () => {
    function call(method: EdgeRequest['method'], path: string, options: { body?: Record<string, string>; query?: Record<string, string>; cookies?: Record<string, string>; dialect?: EdgeRequest['dialect'] } = {}): Promise<EdgeReply> {
      return edge.edge(pageRequest(method, path, { ...options, body: options.body ? { csrf: TEST_CSRF, ...options.body } : null, origin: ORIGIN }));
    }
    const cookieOf = (reply: EdgeReply, name: string) => new RegExp(`^${name}=([^;]*)`).exec(reply.cookies?.find((cookie) => cookie.startsWith(`${name}=`)) ?? '')?.[1];
    const errorTag = (reply: EdgeReply) => /data-error-tag="([A-Z_]+)"/.exec(String(reply.body))?.[1];

    it('asks for the code after the password, with no session until it is right', async () => {
      const { email, secret } = await enrolled();
      const first = await call('POST', '/auth/login', { body: { email, password: PASSWORD, next: '/auth/apps' } });
      expect(first.status).toBe(303);
      expect(first.headers?.['Location']).toBe('/auth/login/two-factor?next=%2Fauth%2Fapps');
      expect(cookieOf(first, 'doable_session')).toBeUndefined();
      const pending = decodeURIComponent(cookieOf(first, 'doable_2fa')!);
      expect(pending).toMatch(/^v1\./);
      // The pending cookie is no session: the settings page still asks to log in.
      const settings = await call('GET', '/auth/settings', { cookies: { doable_session: pending, doable_2fa: pending } });
      expect(settings.headers?.['Location']).toMatch(/^\/auth\/login\?next=/);

      await expect(call('GET', '/auth/login/two-factor', {})).resolves.toMatchObject({ status: 303, headers: expect.objectContaining({ Location: '/auth/login' }) });
      const form = await call('GET', '/auth/login/two-factor', { cookies: { doable_2fa: pending } });
      expect(form.status).toBe(200);
      const wrong = await call('POST', '/auth/login/two-factor', { cookies: { doable_2fa: pending }, body: { otp: '000000', next: '/auth/apps' } });
      expect([wrong.status, errorTag(wrong), cookieOf(wrong, 'doable_session')]).toEqual([401, 'TWO_FACTOR_CODE_INVALID', undefined]);
      const forged = await call('POST', '/auth/login/two-factor', { cookies: { doable_2fa: 'v1.a.b.c' }, body: { otp: codeAt(secret, Date.now()) } });
      expect([forged.status, errorTag(forged)]).toEqual([401, 'TWO_FACTOR_EXPIRED']);
      const right = await call('POST', '/auth/login/two-factor', { cookies: { doable_2fa: pending }, body: { otp: codeAt(secret, Date.now()), next: '/auth/apps' } });
      expect(right.status).toBe(303);
      expect(right.headers?.['Location']).toBe('/auth/apps');
      expect(cookieOf(right, 'doable_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookieOf(right, 'doable_2fa')).toBe('');
    });

    it('ends every first factor, a password or a single sign-on, in the code step for an enrolled account (no session before it)', async () => {
      // SsoPages.callback hands its verified person to the same firstFactorPassed as the password log-in.
      const { userId } = await enrolled();
      const enrolledReply = await pages.firstFactorPassed(new WebExchange(pageRequest('GET', '/auth/sso/callback', { origin: ORIGIN })), userId, '/auth/apps');
      expect([enrolledReply.status, enrolledReply.headers?.['Location'], cookieOf(enrolledReply, 'doable_session')]).toEqual([303, '/auth/login/two-factor?next=%2Fauth%2Fapps', undefined]);
      expect(cookieOf(enrolledReply, 'doable_2fa')).toMatch(/^v1\./);
      const plain = await newAccount();
      const plainReply = await pages.firstFactorPassed(new WebExchange(pageRequest('GET', '/auth/sso/callback', { origin: ORIGIN })), plain.userId, '/auth/apps');
      expect([plainReply.status, plainReply.headers?.['Location']]).toEqual([303, '/auth/apps']);
      expect(cookieOf(plainReply, 'doable_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses the first-generation log-in of an enrolled account with TWO_FACTOR_REQUIRED (a wrong password stays LOGIN_ERROR)', async () => {
      const { email } = await enrolled();
      const refused = await call('POST', '/API/login', { body: { email, password: PASSWORD }, dialect: 'first-generation' });
      expect([refused.status, refused.body]).toEqual([401, 'TWO_FACTOR_REQUIRED']);
      const wrong = await call('POST', '/API/login', { body: { email, password: 'not the password' }, dialect: 'first-generation' });
      expect([wrong.status, wrong.body]).toEqual([401, 'LOGIN_ERROR']);
      const plain = await newAccount();
      const allowed = await call('POST', '/API/login', { body: { email: plain.email, password: PASSWORD }, dialect: 'first-generation' });
      expect(allowed.status).toBe(200);
    });

    it('asks an enrolled user for the code on the consent page before a code is issued', async () => {
      const owner = await newAccount();
      const ownerLogin = await call('POST', '/auth/login', { body: { email: owner.email, password: PASSWORD } });
      const created = await call('POST', '/auth/apps', { cookies: { doable_session: cookieOf(ownerLogin, 'doable_session')! }, body: { name: 'Consent app', redirect_uris: 'https://app.example/cb' } });
      const clientId = /data-testid="client-id">([0-9a-f]{32})</.exec(String(created.body))![1];

      const user = await enrolled();
      const pending = decodeURIComponent(cookieOf(await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } }), 'doable_2fa')!);
      const session = cookieOf(await call('POST', '/auth/login/two-factor', { cookies: { doable_2fa: pending }, body: { otp: codeAt(user.secret, Date.now()) } }), 'doable_session')!;
      const fields = { client_id: clientId, scope: 'data:read', state: 'st' };
      const shown = await call('GET', '/oauth/authorize', { query: fields, cookies: { doable_session: session } });
      expect(String(shown.body)).toContain('name="otp"');
      const without = await call('POST', '/oauth/authorize', { cookies: { doable_session: session }, body: { ...fields, decision: 'allow' } });
      expect([without.status, errorTag(without)]).toEqual([401, 'TWO_FACTOR_CODE_INVALID']);
      const denied = await call('POST', '/oauth/authorize', { cookies: { doable_session: session }, body: { ...fields, decision: 'deny' } });
      expect(new URL(denied.headers!['Location']).searchParams.get('error')).toBe('access_denied');
      const allowed = await call('POST', '/oauth/authorize', { cookies: { doable_session: session }, body: { ...fields, decision: 'allow', otp: user.recovery[0] } });
      expect(allowed.status).toBe(303);
      expect(new URL(allowed.headers!['Location']).searchParams.get('code')).toMatch(/^[0-9a-f]{40}$/);
    });

    it('ends every other session and every token of the account when 2FA is turned on or off; the session that did it stays', async () => {
      const email = `tf-${randomBytes(4).toString('hex')}@example.test`;
      const { userId, token } = await accounts.create({ email, fullName: 'Two Factor', password: PASSWORD, timezone: 'UTC' });
      const logIn = async () => cookieOf(await call('POST', '/auth/login', { body: { email, password: PASSWORD } }), 'doable_session')!;
      const [enroller, before] = [await logIn(), await logIn()];
      const liveTokens = async () => (await sql<{ n: number }>('SELECT count(*)::int AS n FROM auth.access_tokens WHERE user_id = $1 AND revoked_at IS NULL', [userId]))[0].n;
      const firstParty = (session: string) =>
        call('GET', '/oauth/authorize', { cookies: { doable_session: session }, query: { client_id: 'doable-web', scope: 'data:read_write', state: 'st', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' } });
      expect(await liveTokens()).toBe(1);
      expect(new URL(String((await firstParty(before)).headers?.['Location'])).searchParams.get('code')).toMatch(/^[0-9a-f]{40}$/);

      const started = await call('POST', '/auth/settings/two-factor/start', { cookies: { doable_session: enroller }, body: {} });
      const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(String(started.body))![1];
      const on = await call('POST', '/auth/settings/two-factor/confirm', { cookies: { doable_session: enroller }, body: { otp: codeAt(secret, Date.now() - STEP) } });
      expect(on.status).toBe(200);
      // The session from before enrolment never proved the factor: it is gone, with its way to the web app's token and the personal token.
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: before } })).headers?.['Location']).toMatch(/^\/auth\/login\?next=/);
      expect((await firstParty(before)).headers?.['Location']).toMatch(/^\/auth\/login\?next=/);
      expect((await call('POST', '/auth/settings/token', { cookies: { doable_session: before }, body: {} })).headers?.['Location']).toMatch(/^\/auth\/login\?next=/);
      expect(await liveTokens()).toBe(0);
      await expect(sql('SELECT 1 FROM auth.access_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [hashToken(token)])).resolves.toHaveLength(0);
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: enroller } })).status).toBe(200);

      // A new personal token and another session (through the code), then 2FA off from the first: both end again.
      expect((await call('POST', '/auth/settings/token', { cookies: { doable_session: enroller }, body: {} })).status).toBe(200);
      const pending = decodeURIComponent(cookieOf(await call('POST', '/auth/login', { body: { email, password: PASSWORD } }), 'doable_2fa')!);
      const second = cookieOf(await call('POST', '/auth/login/two-factor', { cookies: { doable_2fa: pending }, body: { otp: codeAt(secret, Date.now()) } }), 'doable_session')!;
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: second } })).status).toBe(200);
      const recovery = [...String(on.body).matchAll(/<li><code>([A-Z2-9]{5}-[A-Z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
      expect((await call('POST', '/auth/settings/two-factor/disable', { cookies: { doable_session: enroller }, body: { otp: recovery[0] } })).status).toBe(200);
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: second } })).headers?.['Location']).toMatch(/^\/auth\/login\?next=/);
      expect(await liveTokens()).toBe(0);
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: enroller } })).status).toBe(200);
    });

    it('enrols through the settings pages and turns off with a recovery code', async () => {
      const { email } = await newAccount();
      const session = cookieOf(await call('POST', '/auth/login', { body: { email, password: PASSWORD } }), 'doable_session')!;
      const cookies = { doable_session: session };
      const started = await call('POST', '/auth/settings/two-factor/start', { cookies, body: {} });
      expect(started.status).toBe(200);
      const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(String(started.body))![1];
      expect(String(started.body)).toContain('<svg');
      const wrong = await call('POST', '/auth/settings/two-factor/confirm', { cookies, body: { otp: '000000' } });
      expect([wrong.status, errorTag(wrong)]).toEqual([401, 'TWO_FACTOR_CODE_INVALID']);
      // The same key is shown again after a wrong code.
      expect(String(wrong.body)).toContain(secret);
      const on = await call('POST', '/auth/settings/two-factor/confirm', { cookies, body: { otp: codeAt(secret, Date.now()) } });
      const codes = [...String(on.body).matchAll(/<li><code>([A-Z2-9]{5}-[A-Z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
      expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
      const refused = await call('POST', '/auth/settings/two-factor/disable', { cookies, body: { otp: '' } });
      expect([refused.status, errorTag(refused)]).toEqual([401, 'TWO_FACTOR_CODE_INVALID']);
      const off = await call('POST', '/auth/settings/two-factor/disable', { cookies, body: { otp: codes[0] } });
      expect(off.status).toBe(200);
      expect(String(off.body)).toContain('Two-factor log-in is <strong>off</strong>');
    });
  });
});
