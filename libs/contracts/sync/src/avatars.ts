/**
 * Avatars (sync-interface §2, collaborators): a user's `image_id` names one image the uploads
 * service made in every size, served at `{origin}/avatars/<image_id>_<size>.jpg`. Sync keeps
 * the id on the user's row; every writer of a user object builds the URLs from it here, so
 * they are the same wherever a user is rendered.
 */

/** The gateway path prefix the sizes are served under. */
export const AVATAR_PATH_PREFIX = '/avatars/';

/** Each size's square edge in pixels: big, medium and small are the spec's; s640 the clients' fourth. */
export const AVATAR_SIZES = { big: 195, medium: 60, small: 35, s640: 640 } as const;

export type AvatarSize = keyof typeof AVATAR_SIZES;

/** An image id as the uploads service makes them: 32 lower-case hex digits (random, so not guessable from a user). */
export const AVATAR_IMAGE_ID = /^[0-9a-f]{32}$/;

export interface AvatarUrls {
  readonly avatar_big: string;
  readonly avatar_medium: string;
  readonly avatar_small: string;
  readonly avatar_s640: string;
}

export function avatarUrl(origin: string, imageId: string, size: AvatarSize): string {
  return `${origin.replace(/\/+$/, '')}${AVATAR_PATH_PREFIX}${imageId}_${size}.jpg`;
}

/**
 * The `avatar_*` keys of a user object, or none: the SDK's user schema takes them as optional
 * but never null (client-schemas.md › SyncUserSchema), so a user without an avatar, or a
 * rendering with no origin to build a URL on (a backup), leaves them out.
 */
export function avatarUrls(origin: string | undefined, imageId: string | null): AvatarUrls | Record<string, never> {
  if (imageId === null || !origin) return {};
  return {
    avatar_big: avatarUrl(origin, imageId, 'big'),
    avatar_medium: avatarUrl(origin, imageId, 'medium'),
    avatar_small: avatarUrl(origin, imageId, 'small'),
    avatar_s640: avatarUrl(origin, imageId, 's640'),
  };
}

/** `<image_id>_<size>.jpg`, the last segment of an avatar URL, parsed; null for anything else. */
export function parseAvatarName(name: string): { imageId: string; size: AvatarSize } | null {
  const match = /^([0-9a-f]{32})_(big|medium|small|s640)\.jpg$/.exec(name);
  return match ? { imageId: match[1], size: match[2] as AvatarSize } : null;
}
