// A session file as ADK Python writes it (snake_case, seconds), for the tests of its import.

/** A session as ADK Python's `Session.model_dump_json()` writes it, by ADK's field names. */
export const snakeFile = {
  id: 'py-session-1',
  app_name: 'weather_app',
  user_id: 'ada',
  state: { user_name: 'Ada', plan: { step_one: 1 }, last_city: 'Paris', 'app:units': 'metric' },
  last_update_time: 1_795_000_010.5,
  events: [
    {
      id: 'e1',
      invocation_id: 'inv-1',
      author: 'user',
      timestamp: 1_795_000_000.25,
      content: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      actions: { state_delta: {}, artifact_delta: {}, requested_auth_configs: {} },
      long_running_tool_ids: null,
      partial: null,
      future_field: { keep_me: true },
    },
    {
      id: 'e2',
      invocation_id: 'inv-1',
      author: 'weather_agent',
      timestamp: 1_795_000_001,
      content: {
        role: 'model',
        parts: [
          { function_call: { id: 'call-1', name: 'get_weather', args: { city_name: 'Paris' } } },
          {
            function_call: {
              name: 'get_weather',
              partial_args: [
                { json_path: '$.city_name', string_value: 'Par', will_continue: true },
              ],
              will_continue: true,
            },
          },
        ],
      },
      actions: { state_delta: {}, artifact_delta: {} },
      long_running_tool_ids: [],
      output: { next_step: 'answer', by_city: { paris_fr: 20 } },
    },
    {
      id: 'e3',
      invocation_id: 'inv-1',
      author: 'weather_agent',
      timestamp: 1_795_000_002,
      content: {
        role: 'user',
        parts: [
          { function_response: { id: 'call-1', name: 'get_weather', response: { temp_c: 20 } } },
        ],
      },
      actions: {
        state_delta: { last_city: 'Paris' },
        artifact_delta: { 'report_v1.txt': 0 },
        requested_tool_confirmations: {
          call_9: { hint: 'ok?', confirmed: false, payload: { max_cost: 3 } },
        },
        skip_summarization: true,
      },
    },
    {
      id: 'e4',
      invocation_id: 'inv-1',
      author: 'weather_agent',
      timestamp: 1_795_000_003,
      content: { role: 'model', parts: [{ text: 'It is 20 °C.' }] },
      actions: { state_delta: {}, artifact_delta: {} },
      usage_metadata: { prompt_token_count: 12, candidates_token_count: 5, total_token_count: 17 },
      custom_metadata: { trace_id: 'abc' },
      turn_complete: true,
    },
    {
      id: 'e5',
      invocation_id: 'inv-2',
      author: 'user',
      timestamp: 1_795_000_004,
      content: {
        role: 'user',
        parts: [
          { inline_data: { mime_type: 'text/plain', data: 'aGk=' } },
          // Bytes fb ff as pydantic writes them: URL-safe base64.
          { inline_data: { mime_type: 'application/octet-stream', data: '-_8=' } },
        ],
      },
      actions: { state_delta: {}, artifact_delta: {} },
    },
    {
      id: 'e6',
      invocation_id: 'inv-3',
      author: 'user',
      timestamp: 1_795_000_005,
      actions: { state_delta: {}, artifact_delta: {}, rewind_before_invocation_id: 'inv-2' },
    },
  ],
};
