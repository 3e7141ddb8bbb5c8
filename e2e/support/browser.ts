import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from '@doable/shared-testing/browser';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium, as the bench and the docs' screenshots launch it too. */
export { CHROMIUM_PATH, launchChromium } from '@doable/shared-testing/browser';

/** A stand-in for a third-party application's redirect URL: records every callback it receives. */
export interface CallbackServer {
  readonly url: string;
  readonly received: URL[];
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URL[] = [];
  const server: Server = createServer((req, res) => {
    const address = server.address() as AddressInfo;
    received.push(new URL(req.url ?? '/', `http://127.0.0.1:${address.port}`));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Callback</title><p>Callback received.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oauth/callback`,
    received,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** A browser page and an application's redirect receiver, for a suite that drives the pages. */
export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly callback: CallbackServer;
  close(): Promise<void>;
}

/**
 * Starts Chromium (one context, one page) and a callback server. Each part is kept as soon as it
 * is up, so a failure of the other closes what did start before it is thrown (a missing Chromium
 * must fail the suite, not leave a browser or a listening port behind).
 */
export async function openBrowserSession(): Promise<BrowserSession> {
  let browser: Browser | undefined;
  let callback: CallbackServer | undefined;
  const started = await Promise.allSettled([launchChromium().then((value) => (browser = value)), startCallbackServer().then((value) => (callback = value))]);
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await browser?.close();
    await callback?.close();
    throw failure.reason;
  }
  const context = await browser!.newContext();
  const page = await context.newPage();
  return {
    context,
    page,
    callback: callback!,
    close: async () => {
      await context.close();
      await browser!.close();
      await callback!.close();
    },
  };
}
