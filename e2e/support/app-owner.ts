import { CALLBACK_URL, HttpBrowser, logIn, registerApp, type RegisteredApp } from './oauth-flow';
import type { Account, SystemUnderTest } from './system-view';

export interface AppOwner {
  readonly account: Account;
  readonly app: RegisteredApp;
  /** Logged in to the pages: the console, the consent page. */
  readonly browser: HttpBrowser;
}

/** A new account with a password, logged in to the pages, that registered one app in the console. */
export async function appOwner(system: SystemUnderTest, appName: string): Promise<AppOwner> {
  const password = `${appName} passphrase 1`;
  const account = await system.createAccount({ password });
  const [{ email }] = await system.sql<{ email: string }>('SELECT email FROM auth.accounts WHERE id = $1', [account.userId]);
  const browser = new HttpBrowser(system.url);
  await logIn(browser, email, password);
  return { account, app: await registerApp(browser, appName, [CALLBACK_URL]), browser };
}
