/**
 * Look-alike questions that differ in one word: "reach $150k by Dec 31" (touched at any time) vs
 * "above $150k on Dec 31" (measured at one moment), House vs Senate, nominee vs winner. Each
 * contrast sorts a text into one class (the first that matches); two texts in different classes of
 * one contrast are different contracts. Pure.
 */

type Contrast = readonly [name: string, classes: ReadonlyArray<readonly [label: string, re: RegExp]>];

const CONTRASTS: readonly Contrast[] = [
  [
    'how the price is measured',
    [
      ['touched at any time', /\b(reach|reaches|reached|hit|hits|touch|touches|dips? to|falls? to|trades? (above|below|at))\b/],
      ['at one moment', /\b(above|below|over|under|at or above|at or below|close|closes|settles?|end|ends)\b/],
    ],
  ],
  [
    'chamber',
    [
      ['House', /\b(?<!white )house\b/],
      ['Senate', /\bsenate\b/],
    ],
  ],
  [
    'stage',
    [
      ['the nomination', /\b(nominee|nomination|nominated|primary|primaries)\b/],
      ['the office', /\b(win|wins|winner|elected|election|president|presidency)\b/],
    ],
  ],
];

/** The class `text` falls into for each contrast, by contrast name. */
function classesOf(text: string): Map<string, string> {
  const t = text.toLowerCase();
  const out = new Map<string, string>();
  for (const [name, classes] of CONTRASTS) {
    const hit = classes.find(([, re]) => re.test(t));
    if (hit) out.set(name, hit[0]);
  }
  return out;
}

/** Contrasts on which `a` and `b` fall into different classes, in words a reviewer reads. */
export function contrastsBetween(a: string, b: string): string[] {
  const ca = classesOf(a);
  const cb = classesOf(b);
  const out: string[] = [];
  for (const [name, cls] of ca) {
    const other = cb.get(name);
    if (other !== undefined && other !== cls) out.push(`${name}: ${cls} vs ${other}`);
  }
  return out;
}
