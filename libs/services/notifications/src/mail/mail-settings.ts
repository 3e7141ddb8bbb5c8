import { env } from '@doable/shared-config';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The mail half of the notifications service's environment. SMTP_PASSWORD is a secret by its name
 * and SMTP_URL's password is masked, so neither reaches a log (shared-config's redactConfig).
 */
export const mailEnv = z.object({
  /**
   * Where mail goes: smtp://host:port (STARTTLS when the server offers it) or smtps://host:port
   * (TLS from the start), credentials in the URL or in SMTP_USER / SMTP_PASSWORD. Unset: each
   * message is written as an .eml file under MAIL_DIR instead, and its path logged.
   */
  SMTP_URL: env.url(['smtp', 'smtps']).optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  /** The From of every mail. */
  MAIL_FROM: z.string().min(3).default('Doable <doable@localhost>'),
  /** Where .eml files go without SMTP_URL; by default `mail` in the data folder `npm start` uses. */
  MAIL_DIR: z.string().optional(),
  DOABLE_DATA_DIR: z.string().default('data'),
  /** Where users reach the product: the base of the links mails carry (the rest service's setting). */
  PUBLIC_URL: env.publicUrl(),
  /** Sends after the first before a mail is given up. */
  MAIL_MAX_RETRIES: z.coerce.number().int().min(0).max(30).default(8),
  /** The wait after the first failed send; each further failure doubles it (capped at a day). */
  MAIL_RETRY_SECONDS: env.positiveInt(30),
  /** How often due mails are looked for (a wake after each commit that queued one sends sooner). */
  MAIL_POLL_MS: env.positiveInt(2000),
  /**
   * Mails anyone else can make for an address (invitations and password resets) that one address
   * gets per MAIL_RECIPIENT_WINDOW_SECONDS, from every sender together; more are not mailed.
   */
  MAIL_RECIPIENT_LIMIT: env.positiveInt(10),
  MAIL_RECIPIENT_WINDOW_SECONDS: env.positiveInt(3600),
});

export interface MailSettings {
  readonly smtpUrl: string | undefined;
  readonly smtpUser: string | undefined;
  readonly smtpPassword: string | undefined;
  readonly from: string;
  readonly mailDir: string;
  readonly publicUrl: string;
  readonly maxRetries: number;
  readonly retrySeconds: number;
  readonly pollMs: number;
  /** At most `limit` unsolicited mails (UNSOLICITED_KINDS) to one address per `windowSeconds`. */
  readonly recipientLimit: { readonly limit: number; readonly windowSeconds: number };
}
export const MAIL_SETTINGS = Symbol('MAIL_SETTINGS');

export function mailSettingsOf(config: z.infer<typeof mailEnv>): MailSettings {
  return {
    smtpUrl: config.SMTP_URL,
    smtpUser: config.SMTP_USER,
    smtpPassword: config.SMTP_PASSWORD,
    from: config.MAIL_FROM,
    mailDir: resolve(config.MAIL_DIR ?? resolve(config.DOABLE_DATA_DIR, 'mail')),
    publicUrl: config.PUBLIC_URL,
    maxRetries: config.MAIL_MAX_RETRIES,
    retrySeconds: config.MAIL_RETRY_SECONDS,
    pollMs: config.MAIL_POLL_MS,
    recipientLimit: { limit: config.MAIL_RECIPIENT_LIMIT, windowSeconds: config.MAIL_RECIPIENT_WINDOW_SECONDS },
  };
}
