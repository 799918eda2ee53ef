// The Agentflow V2 nodes that have no Sequential Agents counterpart, as Trellis flow nodes
// (agentflow-v2.ts converts the others): Iteration, Custom Function, HTTP, Tool, Execute Flow, the
// Start node's form, and sticky notes. What cannot come over as it is (a tool that needs a
// credential, a flow chosen by its id in Flowise, Node modules in code) is named in the report.

import type {
  CodeNode,
  FlowNote,
  FormField,
  HttpBodyType,
  HttpMethod,
  HttpNode,
  IterationNode,
  RetrieverNode,
  StartForm,
  SubflowNode,
  ToolCallNode,
} from '../flow.ts';
import { FORM_FIELD_TYPES, HTTP_METHODS } from '../flow.ts';
import { BUILTIN_TOOL_NAMES } from '../../tools/builtin-tools.ts';
import { TOOL_NAMES, isRecord, text, type FlowiseNode } from './importer.ts';
import { htmlText } from './v2-text.ts';
import { V2Fields, rows, type Inputs } from './v2-fields.ts';
import { KnowledgeRefs } from './knowledge.ts';

type Base = { id: string; label?: string };

/** Flowise's HTTP body types as Trellis's. */
const BODY_TYPES: Record<string, HttpBodyType> = {
  json: 'json',
  raw: 'text',
  formData: 'form',
  xWwwFormUrlencoded: 'form',
};

export class V2Nodes extends V2Fields {
  protected iteration(node: FlowiseNode, inputs: Inputs, base: Base): IterationNode {
    const size = sizeOf(node);
    return {
      ...base,
      type: 'iteration',
      input: this.text(node, inputs['iterationInput'], 'its input list'),
      ...(size ? { size } : {}),
    };
  }

  protected code(node: FlowiseNode, inputs: Inputs, base: Base): CodeNode {
    const code = text(inputs['customFunctionJavascriptFunction']);
    const variables: Record<string, string> = {};
    for (const row of rows(inputs['customFunctionInputVariables'])) {
      const name = text(row['variableName']).trim();
      if (name) variables[name] = this.text(node, row['variableValue'], `variable ${name}`);
    }
    const modules = [...code.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    if (modules.length > 0)
      this.im.note(
        node.id,
        'changed',
        `its code requires ${[...new Set(modules)].join(', ')}: the sandbox here has no Node modules and no network, so it fails until rewritten`,
      );
    if (/\$vars\./.test(code))
      this.im.note(
        node.id,
        'changed',
        'its code reads $vars (Flowise variables), which are empty here',
      );
    return {
      ...base,
      type: 'code',
      code,
      ...(Object.keys(variables).length > 0 ? { variables } : {}),
      ...this.updateState(node, inputs['customFunctionUpdateState']),
    };
  }

  protected http(node: FlowiseNode, inputs: Inputs, base: Base): HttpNode {
    const method = text(inputs['method']).toUpperCase();
    const pairs = (value: unknown, where: string) => {
      const made: Record<string, string> = {};
      for (const row of rows(value)) {
        const key = text(row['key']).trim();
        if (key) made[key] = this.text(node, row['value'], `${where} ${key}`);
      }
      return made;
    };
    const headers = pairs(inputs['headers'], 'header');
    const query = pairs(inputs['queryParams'], 'query parameter');
    const bodyType = BODY_TYPES[text(inputs['bodyType'])];
    const body =
      bodyType === 'form'
        ? Object.entries(pairs(inputs['body'], 'body field'))
            .map(([key, value]) => `${key}=${value}`)
            .join('\n')
        : this.text(node, inputs['body'], 'its body');
    if (text(inputs['credential']) || isRecord(inputs['credential']))
      this.im.note(
        node.id,
        'dropped',
        'its credential does not come over: add the header it sets (e.g. Authorization) by hand',
      );
    return {
      ...base,
      type: 'http',
      method: (HTTP_METHODS as readonly string[]).includes(method) ? (method as HttpMethod) : 'GET',
      url: this.text(node, inputs['url'], 'its URL'),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(Object.keys(query).length > 0 ? { query } : {}),
      ...(bodyType && body ? { bodyType, body } : {}),
    };
  }

  protected toolCall(node: FlowiseNode, inputs: Inputs, base: Base): ToolCallNode {
    const flowiseName = text(inputs['toolAgentflowSelectedTool']);
    const name = TOOL_NAMES[flowiseName];
    const tool = name && BUILTIN_TOOL_NAMES.includes(name) ? name : '';
    if (!tool)
      this.im.note(
        node.id,
        'dropped',
        `tool "${flowiseName}" has no Trellis counterpart: choose one of yours (a tool server's, in Settings → Tool servers); until then the node passes on`,
      );
    const args: Record<string, string> = {};
    for (const row of rows(inputs['toolInputArgs'])) {
      const key = text(row['inputArgName']).trim();
      if (key) args[key] = this.text(node, row['inputArgValue'], `argument ${key}`);
    }
    return {
      ...base,
      type: 'toolCall',
      tool,
      args,
      ...this.updateState(node, inputs['toolUpdateState']),
    };
  }

  /** A Retriever: its document stores (knowledge to pick), its query, and its output's format. */
  protected retriever(node: FlowiseNode, inputs: Inputs, base: Base): RetrieverNode {
    const { refs } = new KnowledgeRefs(this.im, node.id, this.im.knowledge).documentStores(
      inputs['retrieverKnowledgeDocumentStores'],
    );
    const query = this.text(node, inputs['retrieverQuery'], 'its query').trim();
    return {
      ...base,
      type: 'retriever',
      knowledge: refs,
      ...(query ? { query } : {}),
      ...(inputs['outputFormat'] === 'textWithMetadata' ? { format: 'textWithMetadata' } : {}),
      ...this.updateState(node, inputs['retrieverUpdateState']),
    };
  }

  protected subflow(node: FlowiseNode, inputs: Inputs, base: Base): SubflowNode {
    this.im.note(
      node.id,
      'changed',
      'Flowise names the flow it runs by an id of its server: choose which of your flows it runs',
    );
    const input = this.text(node, inputs['executeFlowInput'], 'its input');
    return {
      ...base,
      type: 'subflow',
      flow: '',
      ...(input ? { input } : {}),
      ...this.updateState(node, inputs['executeFlowUpdateState']),
    };
  }

  /** The Start node's form, when it takes one. */
  protected form(inputs: Inputs): StartForm | undefined {
    if (inputs['startInputType'] !== 'formInput') return undefined;
    const fields: FormField[] = [];
    for (const row of rows(inputs['formInputTypes'])) {
      const name = text(row['name']).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
      const type = (FORM_FIELD_TYPES as readonly string[]).includes(text(row['type']))
        ? (text(row['type']) as FormField['type'])
        : 'string';
      const label = text(row['label']).trim();
      const options = rows(row['addOptions'])
        .map((option) => text(option['option']).trim())
        .filter(Boolean);
      fields.push({
        name,
        ...(label ? { label } : {}),
        type: type === 'options' && options.length === 0 ? 'string' : type,
        ...(type === 'options' && options.length > 0 ? { options } : {}),
      });
    }
    const title = text(inputs['formTitle']).trim();
    const description = text(inputs['formDescription']).trim();
    return {
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      fields,
    };
  }

  protected note(node: FlowiseNode, inputs: Inputs): FlowNote {
    const size = sizeOf(node);
    const position = (node as { position?: { x?: unknown; y?: unknown } }).position;
    return {
      id: this.im.idOf(node.id),
      text: htmlText(text(inputs['note'])),
      ...(position && typeof position.x === 'number' && typeof position.y === 'number'
        ? { position: { x: Math.round(position.x), y: Math.round(position.y) } }
        : {}),
      ...(size ? { size } : {}),
    };
  }
}

/** The size Flowise drew a node at (its `width`/`height`, or its style's). */
function sizeOf(node: FlowiseNode): { width: number; height: number } | undefined {
  const drawn = node as { width?: unknown; height?: unknown; style?: unknown };
  const style = isRecord(drawn.style) ? drawn.style : {};
  const width = Number(style['width'] ?? drawn.width);
  const height = Number(style['height'] ?? drawn.height);
  return width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height)
    ? { width: Math.round(width), height: Math.round(height) }
    : undefined;
}
