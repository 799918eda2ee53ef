import { LongText } from './LongText.tsx';
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
              {group.entries.map(({ key, value, preview }) => (
                <div key={key} class="state-entry">
                  <dt>{key}</dt>
                  <dd>
                    <LongText value={value} preview={preview} filename={key} />
                  </dd>
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
