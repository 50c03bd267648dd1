/**
 * The neutral page a click link lands on when its operator may no longer be shown where the link
 * was built for (suspended there, or the rules changed since): it names no operator and links to
 * none. Fixed bytes, its one style allowed by hash, nothing else loaded.
 */
import { styleOnlyCsp } from '../embed/fixed-page.js';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#111827;background:#f9fafb}' +
  'main{max-width:32rem;margin:10vh auto}' +
  '@media (prefers-color-scheme:dark){body{color:#f3f4f6;background:#030712}}';

/** The page's policy: its own inline style only; no script, image, frame or form. */
export const WITHDRAWN_CSP = styleOnlyCsp(STYLE);

export const WITHDRAWN_PAGE = Buffer.from(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>No longer available here</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>No longer available here</h1>
<p>The offer behind this link is no longer available where you are. Nothing has been opened or shared on your behalf; you can close this page.</p>
</main>
</body>
</html>
`);
