import { describe } from 'vitest';

import { tripRuleDefinition } from './tripRuleCases';

// The rule's own table; breakerStoreContract runs the same rows through every store.
describe('the trip rule', tripRuleDefinition);
