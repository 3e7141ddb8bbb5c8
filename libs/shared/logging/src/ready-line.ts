/**
 * The URL a service logs once it is serving (`logger.info({ url }, 'ready')` in run-service: pino
 * JSON `{"msg":"ready","url":...}`, at LOG_LEVEL info or lower), read from one line of its
 * output by whatever started it (the cluster launcher, the tests).
 */
export function readyUrlOf(line: string): string | undefined {
  if (!line.startsWith('{') || !line.includes('"ready"')) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return entry.msg === 'ready' && typeof entry.url === 'string' ? entry.url : undefined;
  } catch {
    return undefined;
  }
}
