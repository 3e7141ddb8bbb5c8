import { run } from '../state/session';
import { keepAccountZone, zoneOffer } from '../state/time-zone';

/**
 * Offers the browser's zone when the account's differs (issue #47): one `user_update` of the
 * timezone, queued like every command, so Today, due dates, reminders and the digest follow it.
 */
export function TimeZoneOffer() {
  const offer = zoneOffer.value;
  if (!offer) return null;
  return (
    // Named apart from Settings' "Time zone" field, which tests and screen readers find by that name.
    <aside class="zone-offer" aria-labelledby="zone-offer-title" data-testid="zone-offer">
      <h2 id="zone-offer-title">Switch zones?</h2>
      <p>
        Your account uses <strong>{offer.account}</strong>; this device is in <strong>{offer.browser}</strong>. Dates, Today and reminders follow the account’s zone.
      </p>
      <button type="button" onClick={() => run('user_update', { timezone: offer.browser })}>
        Use {offer.browser}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => keepAccountZone(offer)}>
        Keep {offer.account}
      </button>
    </aside>
  );
}
