import { AccountService, APP_SECRET_KEY, AppSecretBox, CommandLogRepository, OAuthAppService, REVOCATION_BARRIER, type RevocationBarrier } from '@doable/auth-oauth';
import { Database } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The auth-oauth services an operator command uses, and how to let them go. */
export interface OperatorServices {
  readonly accounts: AccountService;
  readonly apps: OAuthAppService;
  close(): Promise<void>;
}

/**
 * The services the operator commands run, built by Nest's injector as the auth-oauth module
 * builds them (their repositories among the providers), over the CLI's own connection and
 * revocation barrier: the CLI wires no service and no repository by hand, so a dependency a
 * service gains is one the injector resolves here too (or fails to, naming it).
 */
export async function operatorServices(database: Database, barrier: RevocationBarrier, appSecretKey: string): Promise<OperatorServices> {
  @Module({
    providers: [
      { provide: Database, useValue: database },
      { provide: REVOCATION_BARRIER, useValue: barrier },
      { provide: APP_SECRET_KEY, useValue: appSecretKey },
      CommandLogRepository,
      AccountService,
      AppSecretBox,
      OAuthAppService,
    ],
  })
  class OperatorModule {}
  const context = await NestFactory.createApplicationContext(OperatorModule, { logger: false, abortOnError: false });
  return { accounts: context.get(AccountService), apps: context.get(OAuthAppService), close: () => context.close() };
}
