import { isObject, type Json } from './client.js';

/** Reading the geneology tree (Part 2, geneology node): nodes, their children and free positions. */

export interface TreeNode {
  name: string;
  userKey: string;
  position: string;
  leftLink: unknown;
  rightLink: unknown;
  /** The raw `children` value: an array of nodes, or "" for a leaf. */
  rawChildren: unknown;
  children: TreeNode[];
  raw: Json;
}

export function toNode(v: unknown): TreeNode | undefined {
  if (!isObject(v)) return undefined;
  const data = isObject(v.userData) ? v.userData : {};
  const kids = Array.isArray(v.children) ? v.children.map(toNode).filter((n): n is TreeNode => n !== undefined) : [];
  return {
    name: typeof v.name === 'string' ? v.name : '',
    userKey: typeof v.userKey === 'string' ? v.userKey : '',
    position: typeof data.position === 'string' ? data.position.toLowerCase() : '',
    leftLink: data.left_link,
    rightLink: data.right_link,
    rawChildren: v.children,
    children: kids,
    raw: v,
  };
}

/** Every node, breadth first (the root first). */
export function nodes(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const n = queue.shift() as TreeNode;
    out.push(n);
    queue.push(...n.children);
  }
  return out;
}

export const childAt = (n: TreeNode, side: 'left' | 'right'): TreeNode | undefined => n.children.find((c) => c.position === side);

/**
 * The free positions shown in the tree, shallowest first. A side is free when no child sits there
 * and its link is not false (a link string is the registration URL of a free side).
 */
export function freeSlots(root: TreeNode): { parent: string; position: 'left' | 'right' }[] {
  const out: { parent: string; position: 'left' | 'right' }[] = [];
  for (const n of nodes(root)) {
    if (!n.name) continue;
    for (const side of ['left', 'right'] as const) {
      const link = side === 'left' ? n.leftLink : n.rightLink;
      if (!childAt(n, side) && link !== false && n.children.length < 2) out.push({ parent: n.name, position: side });
    }
  }
  return out;
}

export const findNode = (root: TreeNode, pred: (n: TreeNode) => boolean): TreeNode | undefined => nodes(root).find(pred);
