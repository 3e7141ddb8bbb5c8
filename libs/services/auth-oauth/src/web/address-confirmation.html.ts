import { html, layout } from './html';
import { ADDRESS_VERIFY_PATH } from '../address-confirmation/address-confirmation.service';

export function verifyAddressPage(options: { csrf: string; token: string; email: string }): string {
  return layout(
    'Confirm your address',
    html`<p>Confirm <strong data-testid="verify-email">${options.email}</strong> as the address of your Doable account?</p>
<form method="post" action="${ADDRESS_VERIFY_PATH}"><input type="hidden" name="csrf" value="${options.csrf}"><input type="hidden" name="token" value="${options.token}">
<button type="submit">Confirm address</button></form>`,
  );
}

export function addressVerifiedPage(email: string): string {
  return layout('Address confirmed', html`<p role="status" data-testid="email-verified">The address <strong>${email}</strong> is confirmed.</p><p><a href="/auth/settings">Settings</a></p>`);
}
