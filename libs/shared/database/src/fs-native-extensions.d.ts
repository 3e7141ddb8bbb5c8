// fs-native-extensions ships no types; what the data-folder lock uses of it. On Linux the locks
// are open-file-description locks (fcntl F_OFD_SETLK), flock elsewhere: held by an open file, so
// the kernel drops them when the process ends, however it ends.
declare module 'fs-native-extensions' {
  interface LockOptions {
    /** A shared (read) lock instead of an exclusive one. */
    shared?: boolean;
  }
  /** Takes the lock at once: false if another open file holds it. */
  export function tryLock(fd: number, options?: LockOptions): boolean;
  /** Resolves once the lock is taken (waits on a thread of libuv's pool, not the event loop). */
  export function waitForLock(fd: number, options?: LockOptions): Promise<void>;
  export function unlock(fd: number): void;
}
