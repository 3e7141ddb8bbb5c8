/** Injection token of the gateway's DeprecationSettings (the old generations' dates, from the environment). */
export const DEPRECATION_SETTINGS = Symbol('DEPRECATION_SETTINGS');
