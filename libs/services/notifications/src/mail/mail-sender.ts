import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@doable/shared-logging';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailSettings } from './mail-settings';

/** A message as the templates render it, addressed. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Sends one message; throws when it was not accepted (the queue retries it). */
export interface MailSender {
  send(message: MailMessage, name: string): Promise<void>;
  close(): void;
}

/**
 * The SMTP transport SMTP_URL names: smtps is TLS from the start (port 465 by default), smtp
 * upgrades with STARTTLS when the server offers it (587 by default). Credentials from the URL, or
 * else SMTP_USER / SMTP_PASSWORD.
 */
function smtpTransport(settings: MailSettings & { smtpUrl: string }): Transporter {
  const url = new URL(settings.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const user = url.username ? decodeURIComponent(url.username) : settings.smtpUser;
  const pass = url.password ? decodeURIComponent(url.password) : settings.smtpPassword;
  return createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(user ? { auth: { user, pass: pass ?? '' } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}

/**
 * The sender the settings ask for. Without SMTP_URL (the embedded default), each message is
 * written as an .eml file (RFC 5322, what a mail client opens) under the mail folder and its path
 * logged, so `npm start` shows what would have been sent; the file is readable by its owner only,
 * since a message can carry a secret link. The log line names the path, never the content.
 */
export function createMailSender(settings: MailSettings, logger: Logger): MailSender {
  const { smtpUrl } = settings;
  if (smtpUrl !== undefined) {
    const transport = smtpTransport({ ...settings, smtpUrl });
    return {
      async send(message) {
        await transport.sendMail({ from: settings.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message, name) {
      const info = (await transport.sendMail({ from: settings.from, ...message })) as { message: Buffer };
      await mkdir(settings.mailDir, { recursive: true, mode: 0o700 });
      const path = join(settings.mailDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${name}.eml`);
      await writeFile(path, info.message, { mode: 0o600 });
      logger.info({ path }, 'mail written to a file (no SMTP_URL is configured)');
    },
    close: () => transport.close(),
  };
}
