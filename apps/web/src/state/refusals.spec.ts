
/** The shape of api/http.ts's RequestRefusedError (that module reads the browser's storage on load). */
const refused = (status: number, body: unknown) => Object.assign(new Error(`refused ${status}`), { status, body });
import { refusalSentence, refusalText } from './refusals';

describe('refusals in sentences', () => {
  it('says what could not be done and why, never a bare tag', () => {
    expect(refusalSentence('project_delete', { error_code: 403, error_tag: 'FORBIDDEN', error: 'FORBIDDEN', http_code: 403 })).toBe('You may not delete the project here: your role does not allow it.');
    expect(refusalSentence('delete_invitation', { error_code: 403, http_code: 403, error: "Only the sender of an invitation, or the project's CREATOR or ADMINs, may delete it" })).toBe(
      "You may not delete invitation here: your role does not allow it. Only the sender of an invitation, or the project's CREATOR or ADMINs, may delete it.",
    );
    expect(refusalSentence('filter_add', { error_code: 400, error: 'invalid filter query near "&"', http_code: 400 })).toBe('Could not add the filter. Invalid filter query near "&". Showing what the server kept.');
  });

  it('reads a refused request’s reason from its body', () => {
    expect(refusalText(refused(400, { error: 'Unknown label: @nowhere' }))).toBe('Unknown label: @nowhere.');
    expect(refusalText(refused(400, null))).toBe('The server refused this (400).');
    expect(refusalText(new Error('offline'))).toBe('Could not load this. It needs a connection.');
  });
});
