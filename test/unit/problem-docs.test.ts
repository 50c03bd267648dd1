import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Problem, PROBLEM_DOCS, TITLES, type ProblemCode } from '../../src/model/problem.js';

const docs = readFileSync(resolve(import.meta.dirname, '../../docs/problems.md'), 'utf8');
/** The anchors GitHub-style renderers give `## name` headings: lower case, spaces to hyphens. */
const anchors = new Set([...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim().toLowerCase().replace(/\s+/g, '-')));

describe('problem type URIs', () => {
  it('each point at a section of docs/problems.md, and every section is a real code', () => {
    const codes = Object.keys(TITLES) as ProblemCode[];
    const fragments = codes.map((code) => {
      const type = new Problem(400, code, 'x').toJSON().type;
      const url = new URL(type);
      expect(`${url.origin}${url.pathname}`).toBe(PROBLEM_DOCS);
      return url.hash.slice(1);
    });
    expect(
      fragments.filter((f) => !anchors.has(f)),
      'codes without a section',
    ).toEqual([]);
    expect(
      [...anchors].filter((a) => !fragments.includes(a)),
      'sections without a code',
    ).toEqual([]);
  });
});
