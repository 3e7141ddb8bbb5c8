import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EdgeBlob, EdgeRequest, Principal } from '@doable/contracts-common';
import { AVATAR_SIZES, type AvatarSize, avatarUrls, EDGE_WRITE_SCOPES, mayWriteAt, parseAvatarName, SyncSubjects } from '@doable/contracts-sync';
import { AVATAR_MAX_BYTES, streamedFileFolder } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import { makeAvatarSizes } from './avatar-sizes';

type StagedFile = NonNullable<EdgeRequest['upload']>;

/** The user object's avatar fields after a change (`image_id` null and no URLs once removed). */
export type AvatarReply = { image_id: string | null } & Partial<Record<`avatar_${AvatarSize}`, string>>;

/** Where one size of an avatar is kept: `avatars/<image_id>/<size>.jpg`, beside nothing an upload or the orphan sweep reads. */
function keyOf(imageId: string, size: AvatarSize): string {
  return `avatars/${imageId}/${size}.jpg`;
}

/**
 * Avatars: a user's image made into every size (avatar-sizes.ts) under a new random image id,
 * stored here, then named on the user's profile by sync (SyncSubjects.setAvatar), which answers
 * the id it replaced; that one's bytes go. A new id each time, so an avatar URL never changes
 * content and may be cached for good. The sizes are served to anyone (an <img> sends no token),
 * as Todoist's avatar URLs are; the id is 128 random bits, not derived from the user.
 */
@Injectable()
export class AvatarsService {
  constructor(
    private readonly services: ServiceClient,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
  ) {}

  /** A streamed image becomes the caller's avatar; the staged file is removed on every path. */
  async set(principal: Principal, file: StagedFile, origin: string): Promise<AvatarReply> {
    const staged = streamedFileFolder(file.key);
    if (staged === null) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Not a streamed upload', { argument: 'image' });
    let sizes: Record<AvatarSize, Buffer>;
    try {
      mayChange(principal);
      const image = await this.read(file.key);
      sizes = await makeAvatarSizes(image);
    } finally {
      await this.removeAll(`${staged}/`);
    }
    const imageId = randomBytes(16).toString('hex');
    try {
      for (const size of Object.keys(AVATAR_SIZES) as AvatarSize[]) {
        await this.store.put(keyOf(imageId, size), Readable.from([sizes[size]]), { contentType: 'image/jpeg' });
      }
      await this.replace(principal.userId, imageId);
    } catch (err) {
      await this.removeAll(`avatars/${imageId}/`).catch(() => undefined);
      throw err;
    }
    return { image_id: imageId, ...avatarUrls(origin, imageId) };
  }

  /** Removes the caller's avatar (none set: nothing changes). */
  async remove(principal: Principal): Promise<AvatarReply> {
    mayChange(principal);
    await this.replace(principal.userId, null);
    return { image_id: null };
  }

  /** One size's blob by its URL path (`/avatars/<image_id>_<size>.jpg`); null (404) for anything else or a removed avatar. */
  async blobFor(path: string): Promise<EdgeBlob | null> {
    const named = parseAvatarName(path.split('/').pop() ?? '');
    if (!named) return null;
    const key = keyOf(named.imageId, named.size);
    const stored = await this.store.stat(key);
    if (!stored) return null;
    return { key, size: stored.size, contentType: 'image/jpeg', fileName: `${named.imageId}_${named.size}.jpg`, disposition: 'inline' };
  }

  /** Sync names the new id on the profile; the id it replaced loses its bytes (later, by hand, if this fails: they are unreachable only by URL). */
  private async replace(userId: string, imageId: string | null): Promise<void> {
    const { previousImageId } = await this.services.request(SyncSubjects.setAvatar, { userId, imageId });
    if (previousImageId !== null) await this.removeAll(`avatars/${previousImageId}/`).catch(() => undefined);
  }

  /** The staged file whole (sharp decodes from memory; the gateway bounded it at AVATAR_MAX_BYTES). */
  private async read(key: string): Promise<Buffer> {
    const blob = await this.store.get(key);
    if (!blob) throw new DomainError('INVALID_ARGUMENT_VALUE', 'The uploaded image is gone (the upload took too long)', { argument: 'image' });
    if (blob.size > AVATAR_MAX_BYTES) {
      blob.stream.destroy();
      throw new DomainError('UPLOAD_SIZE_LIMIT_REACHED', undefined, { limit: 'avatar', max_count: AVATAR_MAX_BYTES / (1024 * 1024) });
    }
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    } finally {
      blob.stream.destroy();
    }
    return Buffer.concat(chunks);
  }

  private async removeAll(prefix: string): Promise<void> {
    const keys: string[] = [];
    for await (const { key } of this.store.list(prefix)) keys.push(key);
    for (const key of keys) await this.store.delete(key);
  }
}

/** Changing the profile needs a writing scope, as user_update does. */
function mayChange(principal: Principal): void {
  if (!mayWriteAt(principal, 'avatar_change')) {
    throw new DomainError('FORBIDDEN', 'This token may not change the avatar', { required_scopes: EDGE_WRITE_SCOPES.avatar_change });
  }
}
