import { createServer, type Server } from 'node:http';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import type { StartupState } from './start-retry';

/**
 * The service's health endpoints while it waits for its dependencies, before the app exists:
 * `/health/live` answers 200 (the process is fine; a liveness probe must not kill it for an
 * outage elsewhere), `/health/ready` 503 with what it waits for. It holds the service's port and
 * hands it over to the app once the dependencies answer.
 */
export interface BootHealthServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startBootHealthServer(state: StartupState, port: number, host: string): Promise<BootHealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const live = path === '/health/live';
    response.writeHead(live ? 200 : 503, { 'content-type': 'application/json', ...(live ? {} : { 'retry-after': '1' }) });
    response.end(JSON.stringify(live ? { status: 'ok', version: PRODUCT_VERSION } : { status: 'error', reason: state.reason, checks: state.checks, version: PRODUCT_VERSION }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: address && typeof address === 'object' ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
