/**
 * Polls until `probe` returns a value other than undefined/false, or fails after the bound.
 * For eventual effects (an event being delivered), never to assert how fast something is.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, boundMs = 20_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? `: ${lastError.message}` : lastError === undefined ? '' : `: ${JSON.stringify(lastError)}`;
      throw new Error(`gave up waiting for ${what}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `work`, or a failure naming `what` once it has taken longer than the bound: a step that hangs
 * says which one it was, where the test's own timeout would only say the test took too long.
 * For a hang's story, never to assert how fast something is.
 */
export async function within<T>(work: Promise<T>, what: string, boundMs = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${boundMs} ms`)), boundMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
