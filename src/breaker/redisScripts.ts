/**
 * Lua scripts of the Redis breaker store. Each runs atomically on the server, so every decision
 * (sum, trip, compare-and-set) sees one consistent state. All keys of one breaker share a hash tag,
 * so a script never touches two cluster slots.
 *
 * Time is the caller's clock (ARGV), not Redis TIME: buckets then mean the same thing in both adapters
 * (Table Storage has no server clock a caller can read atomically), tests drive them with a controlled
 * clock, and the instances' clocks are NTP-synchronised far below one bucket (1 s). A caller whose clock
 * runs ahead writes into a bucket the others count a little later; a caller far behind writes into a
 * bucket that is already expired, which the window drops: the error is bounded by the skew.
 *
 * Counts are stored zero-padded to a fixed width: the hash is a listpack, which stores small integers
 * in fewer bytes, so a padded count keeps the key's memory the same at 10 and at 10,000 failures/s.
 */

/** Failures per bucket never exceed this many digits (10^12 - 1). */
export const COUNT_WIDTH = 12;

const validateState = `
local function checkState(state)
  if state ~= 'CLOSED' and state ~= 'OPEN' and state ~= 'HALF_OPEN' then
    return redis.error_reply('BREAKER_STORE_CORRUPT unknown breaker state: ' .. tostring(state))
  end
  return nil
end
`;

/** Sums the live buckets of KEYS[1]; deletes expired ones. Returns sum, count of `current`, or an error reply. */
const sumWindow = `
local function sumWindow(key, current, oldest)
  local fields = redis.call('HGETALL', key)
  local sum, mine = 0, 0
  for i = 1, #fields, 2 do
    local b, c = tonumber(fields[i]), tonumber(fields[i + 1])
    if b == nil or c == nil then
      return nil, nil, redis.error_reply('BREAKER_STORE_CORRUPT window bucket ' .. fields[i] .. '=' .. fields[i + 1])
    end
    if b < oldest then
      redis.call('HDEL', key, fields[i])
    elseif b <= current then
      sum = sum + c
      if b == current then mine = c end
    end
  end
  return sum, mine, nil
end
`;

const pushTrip = `
local function pushTrip(key, json, limit)
  redis.call('LPUSH', key, json)
  redis.call('LTRIM', key, 0, limit - 1)
end
`;

/**
 * record: KEYS window, state, trips. ARGV now, bucketMs, buckets, threshold, probationThreshold,
 * failures, newTripId, historyLimit, sampleJson. Returns { sum, state, tripped (0/1), tripId }.
 * Everything is read and validated before the first write, so a corrupt key is never half-updated.
 */
export const recordScript = `${validateState}${sumWindow}${pushTrip}
local now, bucketMs, buckets = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local threshold, probation, n = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local current = math.floor(now / bucketMs)
local st = redis.call('HMGET', KEYS[2], 'state', 'tripId')
local state = st[1] or 'CLOSED'
local tripId = st[2] or ''
local bad = checkState(state)
if bad then return bad end
local sum, mine, err = sumWindow(KEYS[1], current, current - buckets + 1)
if err then return err end
if n > 0 then
  redis.call('HSET', KEYS[1], string.format('%d', current), string.format('%0${COUNT_WIDTH}d', mine + n))
  sum = sum + n
end
-- The key lives one window past its last write: memory stays bounded once failures stop.
redis.call('PEXPIRE', KEYS[1], bucketMs * (buckets + 1))
local limit = nil
if state == 'CLOSED' then limit = threshold elseif state == 'HALF_OPEN' then limit = probation end
local tripped = 0
if limit ~= nil and sum > limit then
  local cause = 'threshold'
  if state == 'HALF_OPEN' then cause = 'probation' end
  tripId = ARGV[7]
  tripped = 1
  state = 'OPEN'
  redis.call('HSET', KEYS[2], 'state', 'OPEN', 'tripId', tripId, 'since', ARGV[1])
  pushTrip(KEYS[3], '{"tripId":' .. cjson.encode(tripId) .. ',"cause":"' .. cause .. '","openedAt":' .. ARGV[1] ..
    ',"failuresInWindow":' .. string.format('%d', sum) .. ',"sample":' .. ARGV[9] .. '}', tonumber(ARGV[8]))
end
return { sum, state, tripped, tripId }
`;

/** transition: KEYS state. ARGV from, to, tripId ('' = none), now. Returns 1 when applied, else 0. */
export const transitionScript = `
local st = redis.call('HMGET', KEYS[1], 'state', 'tripId')
local state = st[1] or 'CLOSED'
local tripId = st[2] or ''
if state ~= ARGV[1] or tripId ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'since', ARGV[4])
return 1
`;

/**
 * openManually: KEYS window, state, trips. ARGV newTripId, now, reasonJson, historyLimit, bucketMs,
 * buckets. Returns the new trip id, or false when already OPEN.
 */
export const openManuallyScript = `${validateState}${sumWindow}${pushTrip}
local st = redis.call('HGET', KEYS[2], 'state') or 'CLOSED'
local bad = checkState(st)
if bad then return bad end
if st == 'OPEN' then return false end
local current = math.floor(tonumber(ARGV[2]) / tonumber(ARGV[5]))
local sum, _, err = sumWindow(KEYS[1], current, current - tonumber(ARGV[6]) + 1)
if err then return err end
redis.call('HSET', KEYS[2], 'state', 'OPEN', 'tripId', ARGV[1], 'since', ARGV[2])
pushTrip(KEYS[3], '{"tripId":' .. cjson.encode(ARGV[1]) .. ',"cause":"manual","openedAt":' .. ARGV[2] ..
  ',"failuresInWindow":' .. string.format('%d', sum) .. ',"sample":[],"reason":' .. ARGV[3] .. '}', tonumber(ARGV[4]))
return ARGV[1]
`;

/**
 * replaceTrip: KEYS trips. ARGV oldJson, newJson. Compare-and-set on one list element: the caller read
 * and merged the record; if it changed (or moved out of the bounded list) meanwhile, returns 0.
 */
export const replaceTripScript = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for i = 1, #items do
  if items[i] == ARGV[1] then
    redis.call('LSET', KEYS[1], i - 1, ARGV[2])
    return 1
  end
end
return 0
`;
