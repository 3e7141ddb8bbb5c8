import { isStorableText } from '@doable/contracts-common';

/**
 * Client credentials from `Authorization: Basic base64(id:secret)` (RFC 6749 §2.3.1: each part
 * form-urlencoded first), or undefined when the header is absent or not Basic.
 */
export function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const part = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const clientId = part(decoded.slice(0, colon));
  const clientSecret = part(decoded.slice(colon + 1));
  // Credentials no application can have (NUL, unpaired surrogates) are as good as none: never sent to the database.
  if (!isStorableText(clientId) || !isStorableText(clientSecret)) return undefined;
  return { clientId, clientSecret };
}
