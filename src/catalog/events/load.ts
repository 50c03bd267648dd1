/**
 * Loads and validates the event catalog at start-up: the built-in reviewed data, or a JSON file
 * (`EVENT_CATALOG_FILE`) with the same shape, so the data desk can ship a reviewed update without
 * a code change. A bad catalog stops the process with every problem listed.
 */
import { readFileSync } from 'node:fs';
import { CATALOG_DATA } from './data.js';
import { EventCatalog } from './schema.js';

export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** Validates raw catalog entries. @throws CatalogError listing every issue */
export function parseEventCatalog(raw: unknown, origin = 'event catalog'): EventCatalog {
  const r = EventCatalog.safeParse(raw);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new CatalogError(`invalid ${origin}:\n${lines.join('\n')}`);
  }
  return r.data;
}

/** The catalog from `file` (JSON) when given, else the built-in one. @throws CatalogError */
export function loadEventCatalog(file?: string): EventCatalog {
  if (!file) return parseEventCatalog(CATALOG_DATA);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CatalogError(`cannot read event catalog ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseEventCatalog(raw, `event catalog ${file}`);
}
