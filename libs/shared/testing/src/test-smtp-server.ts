import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail the test server accepted, parsed. */
export interface ReceivedMail {
  readonly envelopeTo: string[];
  readonly parsed: ParsedMail;
  readonly raw: string;
}

/** A real SMTP server in the test process (smtp-server), which keeps what it receives (mailparser). */
export interface TestSmtpServer {
  /** smtp://user:password@127.0.0.1:port, for SMTP_URL. */
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedMail[];
  /** The next `count` messages are refused with a temporary 451 (a failing mail server). */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/**
 * Starts one on a free loopback port. Plain SMTP with AUTH allowed without TLS (a test has no
 * certificate); `credentials` are required when given, so a sender that drops them is refused.
 */
export async function startTestSmtpServer(credentials: { user: string; password: string } = { user: 'mailer', password: 'mail-secret' }): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = new Error('Try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((to) => to.address), parsed, raw });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return {
    url: `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`,
    port,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
