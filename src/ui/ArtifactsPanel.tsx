import { useState } from 'preact/hooks';
import { base64ToBytes, type Part } from '../core/content.ts';
import type { ArtifactInfo } from '../../workers/protocol.ts';
import { LongText } from './LongText.tsx';
import { pure } from './pure.ts';

interface Props {
  artifacts: ArtifactInfo[];
  onLoad: (filename: string, version: number) => Promise<Part | undefined>;
}

interface Shown {
  filename: string;
  version: number;
  part: Part | undefined;
}

function ArtifactsView({ artifacts, onLoad }: Props) {
  const [shown, setShown] = useState<Shown>();
  const show = async (filename: string, version: number) =>
    setShown({ filename, version, part: await onLoad(filename, version) });
  return (
    <section class="panel artifacts" aria-label="Artifacts">
      <h2>Artifacts</h2>
      {artifacts.length === 0 ? (
        <p class="hint">Files the agents save appear here, with every version.</p>
      ) : (
        <ul>
          {artifacts.map((artifact) => {
            const latest = artifact.versions.at(-1)!;
            return (
              <li key={artifact.filename}>
                <span class="file">{artifact.filename}</span>
                {artifact.scope === 'user' && <span class="badge">user</span>}
                <label>
                  <span class="visually-hidden">Version of {artifact.filename}</span>
                  <select
                    value={shown?.filename === artifact.filename ? shown.version : latest}
                    onChange={(event) =>
                      void show(artifact.filename, Number(event.currentTarget.value))
                    }
                  >
                    {artifact.versions.map((version) => (
                      <option key={version} value={version}>
                        v{version}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => void show(artifact.filename, latest)}>
                  View {artifact.filename}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {shown && <ArtifactView {...shown} />}
    </section>
  );
}

function ArtifactView({ filename, version, part }: Shown) {
  if (!part)
    return (
      <p class="hint">
        {filename} v{version} was removed (by a rewind).
      </p>
    );
  const blob = part.inlineData
    ? new Blob([base64ToBytes(part.inlineData.data) as Uint8Array<ArrayBuffer>], {
        type: part.inlineData.mimeType,
      })
    : new Blob([part.text ?? ''], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  return (
    <figure class="artifact-view">
      <figcaption>
        {filename} · v{version}{' '}
        <a href={url} download={filename}>
          Download
        </a>
      </figcaption>
      {part.inlineData?.mimeType.startsWith('image/') ? (
        <img src={url} alt={filename} />
      ) : part.text !== undefined ? (
        // No Download of its own: the caption's downloads the artifact.
        <LongText as="pre" value={part.text} max={ARTIFACT_TEXT_CHARS} />
      ) : (
        <pre>{`${part.inlineData?.mimeType} · ${blob.size} bytes`}</pre>
      )}
    </figure>
  );
}

/** Characters of a text artifact shown before Show all. */
const ARTIFACT_TEXT_CHARS = 20_000;

export const ArtifactsPanel = pure(ArtifactsView);
