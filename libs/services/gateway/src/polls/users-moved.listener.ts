import { GatewayPolls } from '@doable/contracts-sync';
import { METRICS_REGISTRY } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { PushChannel } from '../push/push-channel';
import { GatewayRegistration } from '../registry/gateway-registration';
import { UNCHANGED_ANSWERS } from './unchanged-answers.token';
import type { UnchangedAnswers } from './unchanged-answers';

/**
 * The cluster's half of the users-moved barrier (contracts-sync gateway-polls.ts), on this
 * gateway's own subject: forget these users' "nothing new" answers, and tell their push sockets
 * here whose cue comes this way (PushChannel.moved: the users this gateway is home of). Answered
 * even with poll answers off (GATEWAY_POLL_ANSWER_USERS=0), for the push sockets. A malformed
 * request forgets everything: it was meant to forget someone.
 */
@Injectable()
export class UsersMovedListener {
  constructor(
    @Inject(UNCHANGED_ANSWERS) answers: UnchangedAnswers | null,
    registration: GatewayRegistration,
    push: PushChannel,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    const heard = new Counter({
      name: 'doable_gateway_users_moved_total',
      help: 'Users-moved barrier requests this gateway answered (one per write per home gateway, or per gateway without homes)',
      registers: [registry],
    });
    registration.answer(GatewayPolls.gatewayUsersMovedSubject, (request) => {
      heard.inc();
      const parsed = GatewayPolls.usersMovedRequest.safeParse(request);
      if (!parsed.success) {
        answers?.clear();
        return { forgotten: 0 };
      }
      // Forgotten first: a client syncing on the cue must not meet the answer it replaces.
      const forgotten = answers?.moved(parsed.data.userIds) ?? 0;
      push.moved(parsed.data.userIds);
      return { forgotten };
    });
    if (answers) registration.onLapse(() => answers.clear());
  }
}
