import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { logEdgeRefusal } from './edge-refusal-log';

/** pino's numeric levels: 20 debug, 30 info, 40 warn, 50 error. */
function levelOf(code: ConstructorParameters<typeof DomainError>[0]): number | undefined {
  const lines: string[] = [];
  const logger = createLogger('gateway', 'debug', { write: (line: string) => void lines.push(line) });
  logEdgeRefusal(logger, new DomainError(code), new Error('cause'));
  return lines.length === 1 ? (JSON.parse(lines[0]) as { level: number }).level : undefined;
}

describe('logEdgeRefusal', () => {
  it.each(['BODY_TOO_DEEP', 'BODY_NOT_OBJECT', 'INVALID_UTF8', 'INVALID_CONTENT_ENCODING', 'INVALID_JSON', 'TOO_MANY_PARAMETERS', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const)(
    'logs the malformed request %s at info: a client fault, never an error',
    (code) => {
      expect(levelOf(code)).toBe(30);
    },
  );

  it.each(['AUTH_REQUIRED', 'ROUTE_NOT_FOUND', 'RATE_LIMITED', 'INVALID_ARGUMENT_VALUE'] as const)('logs the everyday refusal %s at debug', (code) => {
    expect(levelOf(code)).toBe(20);
  });

  it('logs a client that went away at debug, whatever code it maps to (Express sendFile, a reset socket)', () => {
    const lines: string[] = [];
    const logger = createLogger('gateway', 'debug', { write: (line: string) => void lines.push(line) });
    // What Express's res.sendFile hands its callback when the browser drops the download.
    const aborted = Object.assign(new Error('Request aborted'), { code: 'ECONNABORTED' });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    logEdgeRefusal(logger, new DomainError('INTERNAL'), aborted);
    logEdgeRefusal(logger, new DomainError('INTERNAL'), reset);
    expect(lines.map((line) => (JSON.parse(line) as { level: number; msg: string }).level)).toEqual([20, 20]);
    expect(lines.join('\n')).not.toContain('"stack"');
  });

  it('keeps warn for an unreachable service and error for the unexpected', () => {
    expect(levelOf('SERVICE_UNAVAILABLE')).toBe(40);
    expect(levelOf('INTERNAL')).toBe(50);
  });
});
