export interface ParentWatchOptions {
  /**
   * Also poll process.ppid: a parent that died without closing an IPC channel (there was none)
   * leaves this process adopted by init or a subreaper, with another ppid. For interactive
   * commands (`npm start`, `npm run start:cluster`), not for services: `nohup node main.js &`
   * must keep a service running after its shell exits.
   */
  readonly pollPpidMs?: number;
}

/**
 * Calls `onGone` once when the process that started this one is gone: its IPC channel closed
 * (a supervisor that spawned us with one and died, even by SIGKILL) or, when asked, our ppid
 * changed. A supervisor killed with -9 then leaves no orphan serving behind it.
 */
export function watchParent(onGone: (why: string) => void, options: ParentWatchOptions = {}): () => void {
  let gone = false;
  const fire = (why: string) => {
    if (gone) return;
    gone = true;
    onGone(why);
  };
  const onDisconnect = () => fire('parent-disconnected');
  if (process.connected) {
    process.once('disconnect', onDisconnect);
    // The channel is only a tripwire: it must not keep an otherwise finished process alive.
    process.channel?.unref();
  }
  let timer: NodeJS.Timeout | undefined;
  if (options.pollPpidMs) {
    const parent = process.ppid;
    timer = setInterval(() => {
      if (process.ppid !== parent) fire('parent-exited');
    }, options.pollPpidMs);
    timer.unref();
  }
  return () => {
    process.off('disconnect', onDisconnect);
    clearInterval(timer);
  };
}
