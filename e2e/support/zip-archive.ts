import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-written ZIP: deflated once, and the sizes its headers declare. */
export interface ZipEntry {
  readonly name: string;
  readonly deflated: Buffer;
  readonly crc: number;
  /** The inflated size the headers declare (a lying bomb declares less than it inflates to). */
  readonly declaredSize: number;
}

/** An entry of `content`, deflated with node's zlib (level 9). */
export function zipEntry(name: string, content: Buffer): ZipEntry {
  return { name, deflated: deflateRawSync(content, { level: 9 }), crc: crc32(content), declaredSize: content.length };
}

/**
 * A ZIP (deflate entries, a central directory) written by hand around node's zlib: the tests need
 * archives fflate will not make quickly (its pure-JS level-9 deflate of 99 MiB takes tens of
 * seconds on a loaded machine) or at all (entries that lie about their size).
 */
export function zipArchive(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.deflated.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.deflated.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + entry.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
