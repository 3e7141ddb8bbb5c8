import { Inject, Injectable } from '@nestjs/common';
import { fetchClientMetadata } from './client-metadata-fetcher';
import { isUrlClientId, type MetadataFetchPolicy } from './client-metadata-policy';
import { type OAuthApp, OAuthAppService } from './oauth-app.service';

export const METADATA_FETCH_POLICY = Symbol('METADATA_FETCH_POLICY');

/** How long a fetched document is trusted before the next authorization fetches it again. */
const DOCUMENT_TTL_MS = 5 * 60_000;

export type ResolvedClient = { readonly ok: true; readonly app: OAuthApp } | { readonly ok: false; readonly reason: string };

/**
 * The application a `client_id` names at the authorization endpoint: one we issued (console or
 * dynamic registration), or a URL whose metadata document describes the client. A document's
 * client is kept as an application row (codes and tokens belong to an application), refreshed
 * from the document when it was fetched more than a few minutes ago.
 */
@Injectable()
export class ClientResolver {
  private readonly fetchedAt = new Map<string, number>();

  constructor(
    private readonly apps: OAuthAppService,
    @Inject(METADATA_FETCH_POLICY) private readonly policy: MetadataFetchPolicy,
  ) {}

  async resolve(clientId: unknown): Promise<ResolvedClient> {
    const known = await this.apps.findByClientId(clientId);
    if (!isUrlClientId(clientId)) return known ? { ok: true, app: known } : { ok: false, reason: 'Unknown client_id' };
    if (known && known.registration !== 'metadata-document') return { ok: true, app: known };
    if (known && Date.now() - (this.fetchedAt.get(clientId) ?? 0) < DOCUMENT_TTL_MS) return { ok: true, app: known };
    const fetched = await fetchClientMetadata(clientId, this.policy);
    if (!fetched.ok) return { ok: false, reason: `The client metadata document was refused: ${fetched.reason}` };
    this.remember(clientId);
    const app = known
      ? await this.apps.refreshPublic(known, fetched.metadata.name, fetched.metadata.redirectUris)
      : await this.apps.createPublic('metadata-document', fetched.metadata.name, fetched.metadata.redirectUris, clientId);
    return { ok: true, app };
  }

  private remember(clientId: string): void {
    // A bounded memory: the oldest entries go first (a refetch is the only cost of forgetting).
    if (this.fetchedAt.size >= 1000) this.fetchedAt.delete(this.fetchedAt.keys().next().value!);
    this.fetchedAt.set(clientId, Date.now());
  }
}
