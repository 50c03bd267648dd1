/**
 * Every relative link in the README, docs/ and bench/ points at a file of the repository, and every
 * `#anchor` at a heading of the page it names (headings slugged as GitHub renders them), so moving
 * a section or a file cannot leave a dead link behind. So does every repository path the pages name
 * in code (`src/http/router.ts`), the way they point a reader at the code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/files.js';

const root = resolve(import.meta.dirname, '../..');

/** The markdown files the project's documentation is made of. */
function docFiles(): string[] {
  const walk = (dir: string) => filesUnder(dir, '.md');
  return [
    join(root, 'README.md'),
    ...walk(join(root, 'docs')),
    ...walk(join(root, 'bench')).filter((p) => !p.includes('/results/')),
  ];
}

/** Markdown without fenced code blocks and inline code spans, where brackets are not links. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link of a file, as [target file, anchor or undefined]. */
function relativeLinks(file: string): Array<{ link: string; path: string; anchor: string | undefined }> {
  const links = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return links
    .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link))
    .map((link) => {
      const [target, anchor] = link.split('#', 2) as [string, string | undefined];
      return { link, path: target === '' ? file : resolve(dirname(file), decodeURI(target)), anchor };
    });
}

/** Repository paths named in inline code (`src/x.ts`, `deploy/prometheus/`), without placeholders or globs. */
function namedPaths(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/`(?:\.\/)?((?:src|workers|test|bench|deploy|docs|\.ci)\/[^`\s]*)`/g)]
    .map((m) => m[1]!.replace(/[:#].*$/, '').replace(/\/$/, ''))
    .filter((path) => !/[*{}<>]/.test(path));
}

describe('documentation links', () => {
  const files = docFiles();

  it('finds the documentation', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(relativeLinks(join(root, 'README.md')).length).toBeGreaterThan(20);
  });

  it('point at files that exist, and at headings that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { link, path, anchor } of relativeLinks(file)) {
        const where = `${relative(root, file)}: ${link}`;
        if (!existsSync(path)) broken.push(`${where} (no such file)`);
        else if (anchor && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor))
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name repository paths that exist (a dated log under bench/log/ keeps the names of its day)', () => {
    const missing = files
      .filter((file) => !relative(root, file).startsWith('bench/log/'))
      .flatMap((file) =>
        namedPaths(file)
          .filter((path) => !existsSync(join(root, path)))
          .map((path) => `${relative(root, file)}: ${path}`),
      );
    expect(missing).toEqual([]);
    expect(namedPaths(join(root, 'docs/design.md')).length).toBeGreaterThan(10);
  });

  it('slugs headings as GitHub does', () => {
    expect([...anchors('## Broad widget: `GET /v1/widgets/broad`\n## Limits\n## Limits')]).toEqual([
      'broad-widget-get-v1widgetsbroad',
      'limits',
      'limits-1',
    ]);
  });
});
