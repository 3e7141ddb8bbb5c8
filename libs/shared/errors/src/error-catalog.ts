/**
 * Every error the system can return, by code. Each code knows its HTTP status and the Todoist
 * wire fields (`error_code`, `error_tag`), so one mapper per transport renders it the same way
 * everywhere. Numeric codes follow public-api-facts §2.1 where the public service shows one.
 *
 * Temp ids: the public service has been seen answering 15, 16 and 58 for an invalid temp id;
 * Doable answers 15 (the documented value) with tag INVALID_TEMPID.
 */
export const ERROR_CATALOG = {
  INVALID_ARGUMENT_VALUE: { http: 400, errorCode: 20, tag: 'INVALID_ARGUMENT_VALUE', message: 'Invalid argument value' },
  ARGUMENT_MISSING: { http: 400, errorCode: 19, tag: 'ARGUMENT_MISSING', message: 'Required argument is missing' },
  INVALID_JSON: { http: 400, errorCode: 20, tag: 'INVALID_JSON', message: 'Request body is not valid JSON' },
  INVALID_TEMP_ID: { http: 400, errorCode: 15, tag: 'INVALID_TEMPID', message: 'Invalid temporary id' },
  INVALID_SYNC_TOKEN: { http: 400, errorCode: 20, tag: 'INVALID_SYNC_TOKEN', message: 'Invalid sync token' },
  UNKNOWN_COMMAND: { http: 400, errorCode: 20, tag: 'UNKNOWN_COMMAND', message: 'Unknown command type' },
  TOO_MANY_COMMANDS: { http: 400, errorCode: 20, tag: 'TOO_MANY_COMMANDS', message: 'Too many commands in one request' },
  AUTH_REQUIRED: { http: 401, errorCode: 401, tag: 'AUTH_INVALID_TOKEN', message: 'Invalid token' },
  FORBIDDEN: { http: 403, errorCode: 403, tag: 'FORBIDDEN', message: 'Forbidden' },
  NOT_FOUND: { http: 404, errorCode: 404, tag: 'NOT_FOUND', message: 'Not found' },
  USER_NOT_FOUND: { http: 404, errorCode: 404, tag: 'USER_NOT_FOUND', message: 'User not found' },
  PROJECT_NOT_FOUND: { http: 404, errorCode: 21, tag: 'PROJECT_NOT_FOUND', message: 'Project not found' },
  ITEM_NOT_FOUND: { http: 404, errorCode: 22, tag: 'ITEM_NOT_FOUND', message: 'Item not found' },
  SECTION_NOT_FOUND: { http: 404, errorCode: 404, tag: 'SECTION_NOT_FOUND', message: 'Section not found' },
  LABEL_NOT_FOUND: { http: 404, errorCode: 404, tag: 'LABEL_NOT_FOUND', message: 'Label not found' },
  LABEL_ALREADY_EXISTS: { http: 400, errorCode: 20, tag: 'LABEL_ALREADY_EXISTS', message: 'Label already exists' },
  FILTER_NOT_FOUND: { http: 404, errorCode: 404, tag: 'FILTER_NOT_FOUND', message: 'Filter not found' },
  NOTE_NOT_FOUND: { http: 404, errorCode: 404, tag: 'NOTE_NOT_FOUND', message: 'Note not found' },
  REMINDER_NOT_FOUND: { http: 404, errorCode: 404, tag: 'REMINDER_NOT_FOUND', message: 'Reminder not found' },
  // api/v1 `projects/{id}/join` joins workspace projects only (a personal one answers this).
  PROJECT_NOT_JOINABLE: { http: 403, errorCode: 403, tag: 'NOT_WORKSPACE_PROJECT', message: 'Only workspace projects can be joined' },
  // Workspaces (sync-interface §4.1): the public service shows no codes for these; the tags follow its naming.
  WORKSPACE_NOT_FOUND: { http: 404, errorCode: 404, tag: 'WORKSPACE_NOT_FOUND', message: 'Workspace not found' },
  FOLDER_NOT_FOUND: { http: 404, errorCode: 404, tag: 'FOLDER_NOT_FOUND', message: 'Folder not found' },
  WORKSPACE_FILTER_NOT_FOUND: { http: 404, errorCode: 404, tag: 'WORKSPACE_FILTER_NOT_FOUND', message: 'Workspace filter not found' },
  INVITATION_NOT_FOUND: { http: 404, errorCode: 404, tag: 'INVITATION_NOT_FOUND', message: 'Invitation not found' },
  // No template gallery exists: every template id is unknown (templates/import_into_project_from_template_id).
  TEMPLATE_NOT_FOUND: { http: 404, errorCode: 404, tag: 'TEMPLATE_NOT_FOUND', message: 'Template not found' },
  // Plan limits (public-api-facts §2.1): a 403 whose tag ends in _LIMIT_REACHED, error_extra
  // naming the limit (`limit`), its value (`max_count`) and the plan. 49 is the public service's
  // code for the task cap; it shows no code for the others.
  MAX_PROJECTS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_PROJECTS_LIMIT_REACHED', message: 'Maximum number of active projects limit reached' },
  MAX_PROJECTS_JOINED_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_PROJECTS_JOINED_LIMIT_REACHED', message: 'Maximum number of joined projects limit reached' },
  MAX_ITEMS_LIMIT_REACHED: { http: 403, errorCode: 49, tag: 'MAX_ITEMS_LIMIT_REACHED', message: 'Maximum number of items per user project limit reached' },
  MAX_SECTIONS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_SECTIONS_LIMIT_REACHED', message: 'Maximum number of sections per project limit reached' },
  MAX_LABELS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_LABELS_LIMIT_REACHED', message: 'Maximum number of labels limit reached' },
  MAX_FILTERS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_FILTERS_LIMIT_REACHED', message: 'Maximum number of filters limit reached' },
  MAX_REMINDERS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_REMINDERS_LIMIT_REACHED', message: 'Maximum number of reminders limit reached' },
  MAX_LOCATION_REMINDERS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_LOCATION_REMINDERS_LIMIT_REACHED', message: 'Maximum number of location reminders limit reached' },
  MAX_COLLABORATORS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_COLLABORATORS_LIMIT_REACHED', message: 'Maximum number of collaborators per project limit reached' },
  MAX_FOLDERS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_FOLDERS_LIMIT_REACHED', message: 'Maximum number of folders per workspace limit reached' },
  MAX_GUESTS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_GUESTS_LIMIT_REACHED', message: 'Maximum number of guests per workspace limit reached' },
  MAX_WORKSPACE_FILTERS_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_WORKSPACE_FILTERS_LIMIT_REACHED', message: 'Maximum number of workspace filters limit reached' },
  MAX_FREE_WORKSPACES_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'MAX_FREE_WORKSPACES_LIMIT_REACHED', message: 'Maximum number of free workspaces created limit reached' },
  UPLOAD_SIZE_LIMIT_REACHED: { http: 403, errorCode: 403, tag: 'UPLOAD_SIZE_LIMIT_REACHED', message: 'The file is larger than the plan allows' },
  // A feature the plan does not include (error_extra.feature names it). The tag is the one older
  // Todoist APIs answered for paid-only features; the public service shows none for today's plans.
  FEATURE_NOT_IN_PLAN: { http: 403, errorCode: 32, tag: 'PREMIUM_ONLY', message: 'This feature is not included in your plan' },
  ITEM_CONTENT_EMPTY: { http: 400, errorCode: 61, tag: 'ITEM_CONTENT_EMPTY', message: 'Item content is empty' },
  // user_update (sync-interface §7.4): the tags the public service answers; codes are not shown there.
  PASSWORD_REQUIRED: { http: 400, errorCode: 20, tag: 'PASSWORD_REQUIRED', message: 'current_password is required to change the email or password' },
  PASSWORD_TOO_SHORT: { http: 400, errorCode: 20, tag: 'PASSWORD_TOO_SHORT', message: 'Password must be at least 8 characters long' },
  PASSWORD_CONTAINS_EMAIL: { http: 400, errorCode: 20, tag: 'PASSWORD_CONTAINS_EMAIL', message: 'Password must not contain the email address' },
  // 400, not 401: a wrong current password must not look like a dead token to clients.
  AUTHENTICATION_ERROR: { http: 400, errorCode: 20, tag: 'AUTHENTICATION_ERROR', message: 'The current password is wrong' },
  COMMON_PASSWORD: { http: 400, errorCode: 20, tag: 'COMMON_PASSWORD', message: 'Password is too common' },
  INVALID_EMAIL: { http: 400, errorCode: 20, tag: 'INVALID_EMAIL', message: 'Invalid email address' },
  // An address of a domain whose accounts must sign in with single sign-on (allowPasswords: false): no account moves there by a change of address.
  EMAIL_DOMAIN_SSO_ONLY: { http: 403, errorCode: 403, tag: 'PASSWORD_LOGIN_DISABLED', message: 'Accounts of this email domain sign in with single sign-on; an address of it cannot be taken by a change' },
  BAD_REQUEST: { http: 400, errorCode: 20, tag: 'BAD_REQUEST', message: 'Bad request' },
  DEVICE_NOT_FOUND: { http: 404, errorCode: 404, tag: 'ERROR_DEVICE_NOT_FOUND', message: 'Device not found' },
  // Credentials live in auth-oauth, which a sync command (one database transaction) cannot call.
  CREDENTIAL_CHANGE_FORBIDDEN: {
    http: 403,
    errorCode: 403,
    tag: 'FORBIDDEN',
    message: 'The email and password cannot be changed through the Sync API; change them in the account settings',
  },
  OAUTH_APP_NOT_FOUND: { http: 404, errorCode: 404, tag: 'NOT_FOUND', message: 'Application not found' },
  // Webhooks: an application configures its webhook with its client credentials (HTTP Basic).
  APP_CREDENTIALS_INVALID: { http: 401, errorCode: 401, tag: 'INVALID_CLIENT', message: 'Client authentication failed' },
  WEBHOOK_URL_REFUSED: { http: 400, errorCode: 20, tag: 'WEBHOOK_URL_REFUSED', message: 'The webhook callback URL is not allowed' },
  WEBHOOK_SECRET_UNAVAILABLE: { http: 409, errorCode: 409, tag: 'WEBHOOK_SECRET_UNAVAILABLE', message: 'Reset the client secret to enable webhooks' },
  ROUTE_NOT_FOUND: { http: 404, errorCode: 404, tag: 'NOT_FOUND', message: 'No such endpoint' },
  METHOD_NOT_ALLOWED: { http: 405, errorCode: 405, tag: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
  EMAIL_ALREADY_EXISTS: { http: 409, errorCode: 409, tag: 'ALREADY_REGISTERED', message: 'Email already registered' },
  PAYLOAD_TOO_LARGE: { http: 413, errorCode: 413, tag: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' },
  HEADERS_TOO_LARGE: { http: 431, errorCode: 431, tag: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: 'Request line or headers too large' },
  // What the edge refuses of a request body before any service sees it (client faults, never outages).
  BODY_TOO_DEEP: { http: 400, errorCode: 20, tag: 'BODY_TOO_DEEP', message: 'Request body is nested too deeply' },
  BODY_NOT_OBJECT: { http: 400, errorCode: 20, tag: 'BODY_NOT_OBJECT', message: 'Request body must be a JSON object' },
  INVALID_UTF8: { http: 400, errorCode: 20, tag: 'INVALID_UTF8', message: 'Request body is not valid UTF-8' },
  INVALID_CONTENT_ENCODING: { http: 400, errorCode: 20, tag: 'INVALID_CONTENT_ENCODING', message: 'Request body could not be decompressed' },
  // A body that stopped before its end (a multipart body without its closing boundary, a client gone mid-upload).
  BODY_INCOMPLETE: { http: 400, errorCode: 20, tag: 'BODY_INCOMPLETE', message: 'Request body ended before it was complete' },
  // A body not received within the edge's deadline (a client that stalls or trickles).
  REQUEST_TIMEOUT: { http: 408, errorCode: 408, tag: 'REQUEST_TIMEOUT', message: 'Request body not received in time' },
  TOO_MANY_PARAMETERS: { http: 413, errorCode: 413, tag: 'TOO_MANY_PARAMETERS', message: 'Too many form parameters' },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, errorCode: 415, tag: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' },
  RATE_LIMITED: { http: 429, errorCode: 35, tag: 'LIMITS_REACHED', message: 'Too many requests. Limits reached. Try again later' },
  INTERNAL: { http: 500, errorCode: 500, tag: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { http: 503, errorCode: 503, tag: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable' },
} as const satisfies Record<string, { http: number; errorCode: number; tag: string; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOG, code);
}
