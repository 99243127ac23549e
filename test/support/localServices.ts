// The local services live in sim/services (the demo and the bench use them too); tests import them here.
export { type AzuriteService, startAzurite } from '../../sim/services/azurite';
export { REDIS_MISSING, type RedisService, startRedis } from '../../sim/services/redis';
