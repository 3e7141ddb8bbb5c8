import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Repositories reach the code that uses them through Nest's injector (a module's providers),
 * never by `new`: a second instance is a second place to wire, and a hand-made default hides a
 * dependency from the module (issue #46). Specs, harnesses and testing libraries may build them.
 * The files still to move are listed with what they make; the list only shrinks: a listed file
 * that no longer makes one fails too, so it is taken off.
 */
const STILL_TO_MOVE: Readonly<Record<string, string>> = {
  'apps/cli/src/main.ts': 'the CLI builds an AccountService without a Nest context',
  'libs/services/auth-oauth/src/webhooks/app-webhook.service.ts': 'AppWebhookRepository',
  'libs/services/notifications/src/mail/collaboration-mailer.ts': 'MailPreferencesRepository',
  'libs/services/notifications/src/mail/daily-digest-mailer.ts': 'MailPreferencesRepository',
  'libs/services/notifications/src/mail/mail-outbox.ts': 'MailQueueRepository',
  'libs/services/notifications/src/mail/mail-worker.ts': 'MailQueueRepository',
  'libs/services/sync/src/daily-digest/daily-digest-scheduler.ts': 'DailyDigestRepository',
  'libs/services/webhooks/src/delivery-worker.ts': 'WebhookRepository',
  'libs/services/webhooks/src/webhook.consumers.ts': 'WebhookRepository',
  'libs/sync/domain/src/stats/karma.ts': 'KarmaRepository, a module constant of the karma functions',
};

const ROOT = join(__dirname, '..', '..', '..');
const NEW_REPOSITORY = /new [A-Z][A-Za-z]*Repository\(/;
const NOT_PRODUCTION = /(\.spec\.ts|\.integration-spec\.ts|\.e2e-spec\.ts|\.harness\.ts)$|\/testing(\/|\.ts$)/;

function productionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !NOT_PRODUCTION.test(path) ? [path] : [];
  });
}

describe('repositories come from the injector', () => {
  const files = [...productionFiles(join(ROOT, 'libs')), ...productionFiles(join(ROOT, 'apps'))];
  const making = files.filter((file) => NEW_REPOSITORY.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));

  it('reads the production sources (guards against a test that checks nothing)', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('no production file makes a repository with new, but those still listed', () => {
    expect(making.filter((file) => !(file in STILL_TO_MOVE))).toEqual([]);
  });

  it('every listed file still makes one (a moved file leaves the list)', () => {
    expect(Object.keys(STILL_TO_MOVE).filter((file) => !making.includes(file))).toEqual([]);
  });
});
