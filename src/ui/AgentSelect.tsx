import type { AgentInfo } from '../../workers/protocol.ts';

interface Props {
  agents: AgentInfo[];
  value: string | undefined;
  disabled: boolean;
  onChange: (agentId: string) => void;
}

export function AgentSelect({ agents, value, disabled, onChange }: Props) {
  const description = agents.find((agent) => agent.id === value)?.description;
  return (
    <div class="agent-select">
      <label>
        Agent{' '}
        <select
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.currentTarget.value)}
        >
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      {description && <p class="hint">{description}</p>}
    </div>
  );
}
