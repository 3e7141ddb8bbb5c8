/**
 * One read per scrape for several gauges that show parts of the same row: a registry collects
 * its metrics at once, so every gauge after the first finds the first one's read in flight and
 * shares it; the next scrape reads again. A failed read answers undefined (the gauges show NaN)
 * rather than failing the whole scrape.
 */
export function scrapeReading<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let reading: Promise<T | undefined> | undefined;
  return () => {
    reading ??= read()
      .catch(() => undefined)
      .finally(() => (reading = undefined));
    return reading;
  };
}
