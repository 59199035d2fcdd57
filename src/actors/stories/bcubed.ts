/**
 * B-cubed precision, recall and F1 of a clustering against gold groups (Bagga & Baldwin):
 * per item, precision = share of its predicted cluster that is in its gold group, recall =
 * share of its gold group that is in its predicted cluster; both averaged over items.
 */
export interface BCubed {
  precision: number;
  recall: number;
  f1: number;
}

/** `predicted[i]` and `gold[i]` are the cluster labels of item i. */
export function bcubed(predicted: readonly string[], gold: readonly string[]): BCubed {
  const n = predicted.length;
  if (n !== gold.length) throw new RangeError('bcubed: label arrays differ in length');
  if (n === 0) return { precision: 1, recall: 1, f1: 1 };
  const pairs = new Map<string, number>();
  const predSize = new Map<string, number>();
  const goldSize = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const p = predicted[i]!, g = gold[i]!;
    const k = p + '\u0000' + g;
    pairs.set(k, (pairs.get(k) ?? 0) + 1);
    predSize.set(p, (predSize.get(p) ?? 0) + 1);
    goldSize.set(g, (goldSize.get(g) ?? 0) + 1);
  }
  let precision = 0, recall = 0;
  for (let i = 0; i < n; i++) {
    const p = predicted[i]!, g = gold[i]!;
    const both = pairs.get(p + '\u0000' + g)!;
    precision += both / predSize.get(p)!;
    recall += both / goldSize.get(g)!;
  }
  precision /= n;
  recall /= n;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
