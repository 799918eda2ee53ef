import type { StateGroup } from './state-model.ts';
import { pure } from './pure.ts';

function StateView({ groups }: { groups: StateGroup[] }) {
  return (
    <section class="panel state" aria-label="State">
      <h2>State</h2>
      {groups.map((group) => (
        <div key={group.scope} class="state-group">
          <h3>{group.label}</h3>
          {group.entries.length === 0 ? (
            <p class="hint">No keys.</p>
          ) : (
            <dl>
              {group.entries.map(({ key, value }) => (
                <div key={key} class="state-entry">
                  <dt>{key}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      ))}
    </section>
  );
}

export const StatePanel = pure(StateView);
