/** The gateway's UnchangedAnswers, or null where GATEWAY_POLL_ANSWER_USERS is 0 (every poll goes to sync). */
export const UNCHANGED_ANSWERS = Symbol('UNCHANGED_ANSWERS');
