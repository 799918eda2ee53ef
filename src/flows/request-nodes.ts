// What a flow's Custom Function (`code`) and HTTP (`http`) nodes do: fill their templates and hand
// them to the sandbox (code-sandbox.ts, QuickJS in WebAssembly, loaded the first time a code node
// runs) or to fetch (http-request.ts). Neither writes events of its own: their output is recorded
// by the node's completion, as every node's is.

import type { CodeNode, HttpNode } from './flow.ts';
import { FORM_STATE_KEY } from './flow.ts';
import { evaluateTemplate, renderTemplate, type TemplateScope } from './templates.ts';

/** Runs a code node's code in the sandbox; its output is what the code returns. */
export async function runCodeNode(
  node: CodeNode,
  scope: TemplateScope,
  session: { id: string },
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const globals: Record<string, unknown> = {
    // Flowise's: `$input` is the user's message, `$flow` the run's context.
    $input: scope.question ?? '',
    $flow: {
      input: scope.question ?? '',
      output: scope.output ?? null,
      state: scope.state,
      sessionId: session.id,
      form: scope.state[FORM_STATE_KEY] ?? null,
      ...(scope.iteration ? { iteration: scope.iteration } : {}),
    },
  };
  for (const [name, template] of Object.entries(node.variables ?? {}))
    globals[`$${name}`] = evaluateTemplate(template, scope) ?? null;
  const { runSandboxed, sandboxLimits } = await import('./code-sandbox.ts');
  const { value } = await runSandboxed({
    code: node.code,
    globals: JSON.parse(JSON.stringify(globals)) as Record<string, unknown>,
    limits: sandboxLimits({
      ...(node.timeoutMs ? { timeoutMs: node.timeoutMs } : {}),
      ...(node.memoryMb ? { memoryMb: node.memoryMb } : {}),
    }),
    ...(signal ? { signal } : {}),
  });
  return value;
}

/** Sends an HTTP node's request, every text with its templates filled; its output the body. */
export async function runHttpNode(
  node: HttpNode,
  scope: TemplateScope,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const fill = (record: Record<string, string> | undefined) =>
    record &&
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, renderTemplate(v, scope)]));
  const { sendHttpRequest } = await import('./http-request.ts');
  const headers = fill(node.headers);
  const query = fill(node.query);
  return sendHttpRequest(
    {
      method: node.method,
      url: renderTemplate(node.url, scope).trim(),
      ...(headers ? { headers } : {}),
      ...(query ? { query } : {}),
      ...(node.bodyType ? { bodyType: node.bodyType } : {}),
      ...(node.body !== undefined ? { body: renderTemplate(node.body, scope) } : {}),
      ...(node.timeoutMs ? { timeoutMs: node.timeoutMs } : {}),
    },
    signal,
  );
}
