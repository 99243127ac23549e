import { type MemoryBreaker, memoryBreakerStore, newMemoryBreaker } from '../support/memoryBreakerStore';
import { breakerStoreContract } from './breakerStoreContract';

// The handler tests' in-memory store keeps the port's promises too, so what they show holds on Redis
// and Table alike.
const breakers = new Map<string, MemoryBreaker>();
breakerStoreContract('memory', (name, policy) => {
  const shared = breakers.get(name) ?? newMemoryBreaker();
  breakers.set(name, shared);
  return Promise.resolve(memoryBreakerStore(policy, shared));
});
