import { Module } from '@nestjs/common';
import { AccountService } from './accounts/account.service';
import { AuthRpcController } from './rpc/auth.rpc-controller';
import { TokenService } from './tokens/token.service';

@Module({
  controllers: [AuthRpcController],
  providers: [AccountService, TokenService],
  exports: [AccountService],
})
export class AuthOauthModule {}
