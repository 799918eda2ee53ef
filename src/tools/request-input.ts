// A question to the user: a long-running call (`ask_user`, `{ question }`) that pauses the
// invocation until the user's reply, a function response `{ result: <text> }` (ADK's convention
// for a bare value) or a JSON object, resumes it; the model reads the reply as the call's result.
//
// ADK has a framework call of its own for this, `adk_request_input` (`{ message,
// response_schema? }`), meant for its workflow nodes: ADK keeps it and its reply out of the
// model's contents. Trellis shows those from ADK servers as questions too, but its own tool is a
// plain long-running tool, so that a model that asks reads the answer.

import { LongRunningFunctionTool } from './function-tool.ts';
import { ASK_USER_TOOL } from './questions.ts';

export { ADK_REQUEST_INPUT, ASK_USER_TOOL, questionOf } from './questions.ts';

export const askUser = new LongRunningFunctionTool<{ question: string }>({
  name: ASK_USER_TOOL,
  description:
    'Asks the user a question and waits for the reply (the run pauses until the user answers). Ask one question at a time, and do not ask again while one is waiting.',
  parameters: {
    type: 'object',
    properties: { question: { type: 'string', description: 'The question for the user.' } },
    required: ['question'],
  },
  // Nothing to answer now: the user's reply is the call's result.
  execute: () => undefined,
});
