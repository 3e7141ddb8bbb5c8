/** Injection tokens the kernel provides to every service's feature modules. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_DEFINITION = Symbol('SERVICE_DEFINITION');
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');
export const RPC_PROXY = Symbol('RPC_PROXY');
export const EVENT_LOOP_DELAY = Symbol('EVENT_LOOP_DELAY');
/** The service's ReadReplica, or null without one (read through Database.read). */
export const READ_REPLICA = Symbol('READ_REPLICA');
