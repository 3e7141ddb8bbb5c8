import { GatewayRevocation } from '@doable/contracts-auth';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { Inject } from '@nestjs/common';
import { PrincipalCache } from './principal-cache';
import { PRINCIPAL_CACHE } from './principal-cache.token';

/** Embedded mode's half of the revocation barrier: the one gateway drops the tokens, then answers. */
@RpcController()
export class TokenDropRpcController {
  constructor(@Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache) {}

  @Handles(GatewayRevocation.dropTokens)
  drop(request: GatewayRevocation.DropTokensRequest): { dropped: number } {
    return { dropped: this.cache.dropMany(request.tokenHashes) };
  }
}
