/**
 * The sync contracts' types-only entry (`@doable/contracts-sync/wire`, issue #46): the api/v1
 * objects as clients receive them, with nothing that runs. The web app reaches it through
 * `@doable/contracts-web-wire`; a browser bundle importing these costs nothing, as types are erased.
 */
export type * from './api-objects';
export type * from './api-user-objects';
export type * from './command-args';
export type { ColorName } from './fields/colors';
export type { NotificationService, NotificationSettingType } from './notification-settings';
