/**
 * Polls until `probe` gives a value, within a bound. Unlike the test kit's waitFor, an
 * exception ends the wait at once: probes here throw only when waiting is pointless (a child
 * exited), and transient failures are returned as undefined by the probe itself.
 */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, boundMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting ${Math.round(boundMs / 1000)} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A GET that answers its status, or undefined when the server is not reachable yet. */
export async function statusOf(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

/** `promise`, or an error naming what was awaited once `boundMs` has passed. */
export async function withTimeout<T>(promise: Promise<T>, boundMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting ${Math.round(boundMs / 1000)} s for ${what}`)), boundMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
