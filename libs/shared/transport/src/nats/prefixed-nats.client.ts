import { ClientNats } from '@nestjs/microservices';

/** Nest's NATS client under the deployment's subject prefix (see PrefixedNatsServer). */
export class PrefixedNatsClient extends ClientNats {
  constructor(
    options: ConstructorParameters<typeof ClientNats>[0],
    private readonly subjectPrefix: string,
  ) {
    super(options);
  }

  protected override normalizePattern(pattern: Parameters<ClientNats['normalizePattern']>[0]): string {
    return this.subjectPrefix + super.normalizePattern(pattern);
  }
}
