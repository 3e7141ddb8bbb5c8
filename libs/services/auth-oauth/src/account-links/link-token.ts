/** A link secret as this service makes them (32 random bytes, base64url): anything else is not looked up. */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
