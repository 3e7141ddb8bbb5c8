import { http } from '@doable/shared-testing';
import { withOverloadRetries } from './overload-retries';
import type { Account, SystemUnderTest } from './system-under-test';

export interface Command {
  readonly type: string;
  readonly args: Record<string, unknown>;
  readonly temp_id?: string;
}

/**
 * A user's conversation with the Sync API in a test: requests that must succeed at the HTTP
 * level, and commands with generated uuids whose per-command statuses come back in order.
 * Takes getters because systems and accounts are made in `beforeAll`.
 */
export function syncSession(system: () => SystemUnderTest, account: () => Account, label: string) {
  let counter = 0;
  const sync = async (body: Record<string, unknown>, path = '/api/v1/sync', token = account().token): Promise<any> => {
    // Sent again after a 503, the commands still run once (their uuids).
    const response = await withOverloadRetries(() => http(system().url, 'POST', path, { token, json: body }));
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    return response.body;
  };
  const run = async (...commands: Command[]): Promise<{ statuses: any[]; mapping: Record<string, string> }> => {
    const withUuids = commands.map((command) => ({ ...command, uuid: `${label}-${system().mode}-${++counter}` }));
    const body = await sync({ commands: withUuids });
    return { statuses: withUuids.map((command) => body.sync_status[command.uuid]), mapping: body.temp_id_mapping as Record<string, string> };
  };
  return { sync, run };
}
