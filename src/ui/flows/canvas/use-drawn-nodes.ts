// The nodes the canvas draws, as xyflow holds them: its own copy while the user drags, resizes
// and selects, replaced by the flow's when the flow changes, keeping what is selected and what
// xyflow measured.

import { useUpdateNodeInternals } from '@xyflow/react';
import { useEffect, useRef, useState } from 'preact/hooks';
import { sameNode, type DrawnNode } from './canvas-nodes.ts';

/** `selected`: the node chosen from outside, selected when it is drawn for the first time. */
export function useDrawnNodes(drawn: DrawnNode[], selected: string | undefined) {
  const [nodes, setNodes] = useState<DrawnNode[]>(drawn);
  const updateNodeInternals = useUpdateNodeInternals();
  const redrawn = useRef<string[]>([]);
  useEffect(() => {
    setNodes((current) => {
      // A node the flow did not change stays the same object: xyflow keeps what it measured of
      // it (its size and handles; it measures again only when the size changes). One that did
      // change keeps its measure too, and is measured again below (its handles may be new).
      const before = new Map(current.map((node) => [node.id, node]));
      const changed: string[] = [];
      const next = drawn.map((box): DrawnNode => {
        const old = before.get(box.id);
        if (!old) return box.id === selected ? { ...box, selected: true } : box;
        if (sameNode(old, box)) return old;
        changed.push(box.id);
        return {
          ...box,
          ...(old.selected ? { selected: true } : {}),
          ...(old.measured ? { measured: old.measured } : {}),
        };
      });
      redrawn.current = changed;
      // Nothing new (the flow changed elsewhere): the same array, so nothing draws again.
      if (next.length === current.length && next.every((node, i) => node === current[i]))
        return current;
      return next;
    });
  }, [drawn]);
  useEffect(() => {
    const ids = redrawn.current;
    if (ids.length === 0) return;
    redrawn.current = [];
    // Once the canvas has drawn them (a frame later): their handles are where they are now.
    const frame = requestAnimationFrame(() => updateNodeInternals(ids));
    return () => {
      cancelAnimationFrame(frame);
      redrawn.current = [...ids, ...redrawn.current];
    };
  }, [nodes, updateNodeInternals]);
  return [nodes, setNodes] as const;
}
