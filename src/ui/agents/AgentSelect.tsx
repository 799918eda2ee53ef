import type { AgentInfo, AgentKind } from '../../../workers/protocol.ts';

interface Props {
  agents: AgentInfo[];
  value: string | undefined;
  disabled: boolean;
  onChange: (agentId: string) => void;
}

const GROUPS: { kind: AgentKind; label: string }[] = [
  { kind: 'model', label: 'Chat with a model' },
  { kind: 'demo', label: 'Demo agents' },
  { kind: 'example', label: 'Example flows' },
  { kind: 'flow', label: 'Your flows' },
  { kind: 'agent', label: 'Your agents' },
  { kind: 'remote', label: 'ADK servers' },
];

export function AgentSelect({ agents, value, disabled, onChange }: Props) {
  const description = agents.find((agent) => agent.id === value)?.description;
  // A session whose flow or agent was deleted keeps its agent id: say so rather than show another.
  const missing =
    value !== undefined && agents.length > 0 && !agents.some((agent) => agent.id === value);
  const what = value?.startsWith('agent:') ? 'agent' : 'flow';
  return (
    <div class="agent-select">
      <label>
        Agent{' '}
        <select
          // Its name is the label's word alone (inside the label, the chosen option would join it).
          aria-label="Agent"
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.currentTarget.value)}
        >
          {missing && <option value={value}>(deleted {what})</option>}
          {GROUPS.map(({ kind, label }) => {
            const members = agents.filter((agent) => agent.kind === kind);
            return members.length === 0 ? null : (
              <optgroup key={kind} label={label}>
                {members.map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
      </label>
      {description && <p class="hint">{description}</p>}
      {missing && <p class="hint">This session's {what} was deleted: choose another agent.</p>}
    </div>
  );
}
