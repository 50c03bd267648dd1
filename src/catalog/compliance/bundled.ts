/**
 * The rules shipped with this release (rules.json), checked when the module loads: a bad row stops
 * start-up, naming the row, rather than serving a widget the rules do not allow.
 */
import data from './rules.json' with { type: 'json' };
import { OPERATORS } from '../operators.js';
import { compileRules } from './rules.js';

export const BUNDLED_RULES = compileRules(
  data,
  OPERATORS.map((op) => op.id),
  'bundled compliance rules (src/catalog/compliance/rules.json)',
);
