// Centring a node of the canvas: the one a checkpoint row names.

import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'preact/hooks';

/** Centres node `id` when it changes (a checkpoint row chosen in the run view). */
export function FocusNode({ id }: { id: string | undefined }) {
  const flowApi = useReactFlow();
  useEffect(() => {
    if (!id) return;
    const node = flowApi.getInternalNode(id);
    if (!node) return;
    // Where it is on the canvas as a whole (a node in a group has its position relative to it).
    const { x, y } = node.internals.positionAbsolute;
    const { width = 136, height = 46 } = node.measured;
    void flowApi.setCenter(x + width / 2, y + height / 2, {
      zoom: Math.max(flowApi.getZoom(), 0.8),
      duration: 200,
    });
  }, [id, flowApi]);
  return null;
}
