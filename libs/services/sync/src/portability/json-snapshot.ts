import { DomainError } from '@doable/shared-errors';
import type { AccountSnapshot } from './account-snapshot';
import { snapshotOfFullSync } from './full-sync-snapshot';

/** A full sync's JSON (an upload, or a Doable backup's `doable-account.json`) as a snapshot; what is not JSON is a coded 400. */
export function snapshotOfJsonBytes(bytes: Uint8Array): AccountSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation: 'neither a ZIP backup nor JSON' });
  }
  return snapshotOfFullSync(parsed);
}
