/**
 * Look-alike questions that differ in one word: "reach $150k by Dec 31" (touched at any time) vs
 * "above $150k on Dec 31" (measured at one moment), above vs below, cut vs hike, Democrat vs
 * Republican, Bitcoin vs Ethereum, House vs Senate, nominee vs winner. Each contrast sorts a text
 * into one class (the first that matches); two texts in different classes of one contrast are
 * different contracts. A word used in passing ("under Trump") may reject a true pair: a rejected
 * pair costs a reviewer a look, an accepted opposite would publish the wrong price. Pure.
 */

type Contrast = readonly [name: string, classes: ReadonlyArray<readonly [label: string, re: RegExp]>];

const CONTRASTS: readonly Contrast[] = [
  [
    'how the price is measured',
    [
      [
        'touched at any time',
        /\b(reach|reaches|reached|hit|hits|touch|touches|dips? to|falls? to|trades? (above|below|at))\b/,
      ],
      ['at one moment', /\b(above|below|over|under|at or above|at or below|close|closes|settles?|end|ends)\b/],
    ],
  ],
  [
    'direction',
    [
      [
        'up',
        /\b(above|over|more than|at least|exceeds?|higher|hikes?|hiked|raises?|raised|increases?|increased|rises?|rose|up|gains?|grows?)\b/,
      ],
      [
        'down',
        /\b(below|under|less than|at most|lower|lowers|lowered|cuts?|decreases?|decreased|falls?|fell|drops?|dropped|down|declines?|shrinks?)\b/,
      ],
      ['unchanged', /\b(hold|holds|unchanged|pause|pauses|maintains?)\b/],
    ],
  ],
  [
    'party',
    [
      ['Democratic', /\b(democrat|democrats|democratic|dem|dems)\b/],
      ['Republican', /\b(republican|republicans|gop)\b/],
    ],
  ],
  [
    'asset',
    [
      ['Bitcoin', /\b(bitcoin|btc)\b/],
      ['Ethereum', /\b(ethereum|ether|eth)\b/],
      ['Solana', /\b(solana|sol)\b/],
      ['XRP', /\b(xrp|ripple)\b/],
      ['Dogecoin', /\b(dogecoin|doge)\b/],
      ['gold', /\bgold\b/],
      ['oil', /\b(oil|wti|brent|crude)\b/],
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
