// S1's framework floor, in a process of its own: the same answer as noop-sync-server (the same
// in-memory token check, the same one primary-key query, the same body), served by the smallest
// NestJS app on the design card's HTTP adapter (@nestjs/platform-express, with Nest's default
// JSON and form body parsers). No auth library, no rate limit, no broker, no validation. What it
// loses against the bare server is the price of the framework alone, which no change behind the
// gateway's HTTP layer can win back: it bounds the S1 ratio the product can reach on this design.
//
// Env: as noop-sync-server. Prints `LISTENING <port>`.
import 'reflect-metadata';
import { Controller, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { announce, failedToStart, loadTokens } from './bare-server';
import { noChangeSync, syncTokenOf } from './noop-sync-answer';

@Controller()
class NoChangeSyncController {
  // Express in, Express out, as the gateway's edge controller does.
  @Post('api/v1/sync')
  async sync(@Req() request: Request, @Res() response: Response): Promise<void> {
    const { status, body } = await noChangeSync(request.headers.authorization, syncTokenOf(request.headers['content-type'], request.body));
    response.status(status).json(body);
  }
}

@Module({ controllers: [NoChangeSyncController] })
class FloorModule {}

async function start(): Promise<void> {
  await loadTokens();
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  const server = await app.listen(0, '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  announce(typeof address === 'object' && address ? address.port : 0, () => app.close());
}

start().catch(failedToStart);
