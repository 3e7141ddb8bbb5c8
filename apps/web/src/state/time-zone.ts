import { computed, signal } from '@preact/signals';
import { browserZone } from '../api/app-session';
import { serverData } from './store';

/**
 * The offer to switch the account's zone to the browser's (issue #47, as Todoist does): shown when
 * they differ, until the person switches or keeps the account's. Keeping it is remembered in this
 * browser for that pair of zones, so travelling to a third zone asks again.
 */
const keptKey = (userId: string) => `doable.zone-kept.${userId}`;
const pair = (account: string, browser: string) => `${account} ${browser}`;

/** Bumped when the person answers, so the offer re-reads what was kept. */
const answered = signal(0);

export const zoneOffer = computed(() => {
  void answered.value;
  const user = serverData.value.user;
  const account = user?.tz_info?.timezone;
  const browser = browserZone();
  if (!user || !account || account === browser) return null;
  if (localStorage.getItem(keptKey(user.id)) === pair(account, browser)) return null;
  return { account, browser, userId: user.id };
});

/** "Keep <account zone>": not asked again in this browser for these two zones. */
export function keepAccountZone(offer: { account: string; browser: string; userId: string }): void {
  localStorage.setItem(keptKey(offer.userId), pair(offer.account, offer.browser));
  answered.value++;
}
