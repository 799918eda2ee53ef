import { ImageViewer } from '../common/ImageViewer.tsx';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { base64ToBytes, type Part } from '../../core/content.ts';
import { IMAGE_TYPES, attachmentKindOf } from '../../models/attachments.ts';
import type { ArtifactInfo } from '../../../workers/protocol.ts';
import { LongText } from '../common/LongText.tsx';
import { pure } from '../common/pure.ts';

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
  const shown = useMemo(() => part && viewOf(part), [part]);
  useEffect(() => () => shown && URL.revokeObjectURL(shown.url), [shown]);
  if (!part || !shown)
    return (
      <p class="hint">
        {filename} v{version} was removed (by a rewind).
      </p>
    );
  return (
    <figure class="artifact-view">
      <figcaption>
        {filename} · v{version}{' '}
        <a href={shown.url} download={filename}>
          Download
        </a>
      </figcaption>
      {shown.image ? (
        <ImageViewer src={shown.url} alt={filename} />
      ) : shown.text !== undefined ? (
        // No Download of its own: the caption's downloads the artifact.
        <LongText as="pre" value={shown.text} max={ARTIFACT_TEXT_CHARS} />
      ) : (
        <pre>{`${part.inlineData?.mimeType} · ${shown.size} bytes`}</pre>
      )}
    </figure>
  );
}

/**
 * How an artifact shows: a bitmap image as an image, text (an HTML or SVG file too) as text,
 * anything else by its type and size. Its object URL is typed only for a bitmap image: a blob
 * URL shares the app's origin, and an HTML or SVG one opened in a tab would run as the app.
 */
function viewOf(part: Part): { url: string; image: boolean; text?: string; size: number } {
  const data = part.inlineData;
  const bytes = data ? (base64ToBytes(data.data) as Uint8Array<ArrayBuffer>) : undefined;
  const image = !!data && (IMAGE_TYPES as readonly string[]).includes(data.mimeType);
  const blob = bytes
    ? new Blob([bytes], { type: image ? data!.mimeType : 'application/octet-stream' })
    : new Blob([part.text ?? ''], { type: 'text/plain' });
  const text =
    part.text ??
    (data && attachmentKindOf(data.mimeType) === 'text'
      ? new TextDecoder().decode(bytes)
      : undefined);
  return {
    url: URL.createObjectURL(blob),
    image,
    ...(text !== undefined ? { text } : {}),
    size: blob.size,
  };
}

/** Characters of a text artifact shown before Show all. */
const ARTIFACT_TEXT_CHARS = 20_000;

export const ArtifactsPanel = pure(ArtifactsView);
