/**
 * The zone a sign-up brings (issue #47): the web app links to the sign-up form with the browser's
 * IANA zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), carried through the form as a
 * hidden field, so an account made from Auckland has Auckland's days from its first task. The
 * pages run no script, hence a link made by the app rather than a field filled in the page.
 * Anything the runtime does not know as a zone is dropped and the account keeps UTC.
 */
export const DEFAULT_TIMEZONE = 'UTC';

export function signupTimezone(value: string | undefined): string | undefined {
  if (!value || value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return undefined;
  try {
    // Kept as the browser spelled it (ICU would answer its own alias: Asia/Kolkata → Asia/Calcutta).
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    return undefined;
  }
}
