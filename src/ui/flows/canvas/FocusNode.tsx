// Centring a node of the canvas: the one a checkpoint row names.

import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'preact/hooks';

/** Centres node `id` when it changes (a checkpoint row chosen in the run view). */
export function FocusNode({ id }: { id: string | undefined }) {
  const flowApi = useReactFlow();
  useEffect(() => {
    if (!id) return;
    const node = flowApi.getNode(id);
    if (!node) return;
    void flowApi.setCenter(node.position.x + 68, node.position.y + 23, {
      zoom: Math.max(flowApi.getZoom(), 0.8),
      duration: 200,
    });
  }, [id, flowApi]);
  return null;
}
