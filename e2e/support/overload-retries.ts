/**
 * Sends a request again, after a pause, while it is refused with a 503 (which says Retry-After),
 * as the official clients do; answers the last response (at most 3 tries). On a loaded machine a
 * reply can pass REQUEST_TIMEOUT_MS or a pool wait its 5 s (the embedded PGlite answers one query
 * at a time); such a refusal did nothing that a command's uuid cannot make safe to repeat.
 */
export async function withOverloadRetries<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.status !== 503 || attempt === 3) return response;
    await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
  }
}
