import { LongText } from './LongText.tsx';
import type { StateGroup } from './state-model.ts';
import { pure } from './pure.ts';
import { clip } from './preview.ts';

/** Characters of a key shown: keys come from chats and files, and can be anything. */
const KEY_CHARS = 200;

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
                  <dt title={key.length > KEY_CHARS ? `${key.length} characters` : undefined}>
                    {clip(key, KEY_CHARS)}
                  </dt>
                  <dd>
                    <LongText value={value} preview={preview} filename={clip(key, 60)} />
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
