import { AVATAR_SIZES, type AvatarSize } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import sharp from 'sharp';

/** Larger images are refused before decoding (sharp holds the decoded pixels in memory). */
const MAX_AVATAR_PIXELS = 50_000_000;

function notAnImage(): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'The avatar must be a JPEG, PNG, GIF, WebP, AVIF or TIFF image', { argument: 'image' });
}

/**
 * Every avatar size of an image, as JPEG squares (sync-interface §2: big 195, medium 60,
 * small 35; and s640): cropped to the centre, enlarged when smaller (a URL's size is a
 * promise), transparency on white (JPEG has none), turned upright by its EXIF orientation.
 * Bytes that do not decode as an image are the client's fault: INVALID_ARGUMENT_VALUE.
 */
export async function makeAvatarSizes(image: Buffer): Promise<Record<AvatarSize, Buffer>> {
  let decoder: sharp.Sharp;
  try {
    decoder = sharp(image, { limitInputPixels: MAX_AVATAR_PIXELS, failOn: 'error', animated: false }).rotate();
    await decoder.clone().metadata();
  } catch {
    throw notAnImage();
  }
  try {
    const made = await Promise.all(
      (Object.entries(AVATAR_SIZES) as Array<[AvatarSize, number]>).map(async ([size, edge]) => {
        const data = await decoder.clone().resize({ width: edge, height: edge, fit: 'cover', position: 'centre' }).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
        return [size, data] as const;
      }),
    );
    return Object.fromEntries(made) as Record<AvatarSize, Buffer>;
  } catch {
    // A header that reads but pixels that do not (a truncated file): still not an image.
    throw notAnImage();
  }
}
