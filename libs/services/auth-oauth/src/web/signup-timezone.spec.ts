import { signupTimezone } from './signup-timezone';

describe('signupTimezone', () => {
  it('takes an IANA zone the runtime knows, as the browser spelled it', () => {
    expect(signupTimezone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(signupTimezone('Pacific/Auckland')).toBe('Pacific/Auckland');
    expect(signupTimezone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(signupTimezone('UTC')).toBe('UTC');
  });

  it('drops what is no zone: the account keeps UTC', () => {
    for (const value of [undefined, '', 'Mars/Olympus', '../etc/passwd', 'Europe/Berlin; drop', 'x'.repeat(65)]) expect(signupTimezone(value)).toBeUndefined();
  });
});
