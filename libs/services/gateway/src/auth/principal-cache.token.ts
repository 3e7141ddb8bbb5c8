export const PRINCIPAL_CACHE = Symbol('PRINCIPAL_CACHE');
