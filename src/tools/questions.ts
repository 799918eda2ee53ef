// Which calls ask the user a question, and what they ask: pure, so that the page reads questions
// without loading the tool classes (request-input.ts makes the ask_user tool itself).

export const ASK_USER_TOOL = 'ask_user';
export const ADK_REQUEST_INPUT = 'adk_request_input';

/** The question a call asks the user, if it is one (`ask_user`, or ADK's `adk_request_input`). */
export function questionOf(call: {
  name: string;
  args?: Record<string, unknown>;
}): string | undefined {
  const text =
    call.name === ASK_USER_TOOL
      ? call.args?.question
      : call.name === ADK_REQUEST_INPUT
        ? call.args?.message
        : undefined;
  return typeof text === 'string' ? text : undefined;
}
