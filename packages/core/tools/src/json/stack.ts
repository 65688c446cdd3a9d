/**
 * Reverses `items[first..]` in place. Walkers push a node's members in document order and pop from the end, so
 * reversing what was just pushed makes them come off the stack in document order, as a recursive walk visits them.
 */
export function reverseFrom(items: unknown[], first: number): void {
  for (let low = first, high = items.length - 1; low < high; low++, high--) {
    const swap = items[low]
    items[low] = items[high]
    items[high] = swap
  }
}
