/** Vitest setup: every answer the API gives a test is checked against the OpenAPI document. */
import { installContractCheck } from './contract.js';

installContractCheck();
