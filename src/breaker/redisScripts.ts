/**
 * Lua scripts of the Redis breaker store. Each runs atomically on the server, so every decision
 * (sum, trip, compare-and-set) sees one consistent state. All keys of one breaker share a hash tag,
 * so a script never touches two cluster slots.
 *
 * Time is the caller's clock (ARGV), not Redis TIME: buckets then mean the same thing in both adapters
 * (Table Storage has no server clock a caller can read atomically), tests drive them with a controlled
 * clock, and the instances' clocks are NTP-synchronised far below one bucket (1 s). A caller whose clock
 * runs ahead writes into a bucket the others count a moment early; a caller whose clock lags behind the
 * window counts into its oldest live bucket: a failure is never dropped, only placed off by the skew.
 *
 * Counts (and the running total) are stored zero-padded to a fixed width: the hash is a listpack, which
 * stores small integers in fewer bytes, so padding keeps the key's memory the same at 10 and at 10,000
 * failures/s. The hash holds one field per bucket of the window plus `t` and `lo`.
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

const pushTrip = `
local function pushTrip(key, json, limit)
  redis.call('LPUSH', key, json)
  redis.call('LTRIM', key, 0, limit - 1)
end
`;

/**
 * Brings the window hash up to `current` and returns its total and this bucket's count. The hash keeps a
 * running total (`t`) of the buckets from `lo` on, so a call normally reads three fields instead of
 * summing the window: the buckets that left the window since the last call are subtracted and deleted
 * (one per bucket width at steady rate). After a gap of a whole window, or a reset, it rebuilds from all
 * fields. A caller whose clock lags behind `lo` counts into bucket `lo`: its failures are never dropped.
 * All reads and checks come before the first write, so a corrupt hash is never half-updated.
 * Returns total, current (possibly clamped), lo, mine, or nil + an error reply.
 */
const advanceWindow = `
local function corrupt(field, value)
  return redis.error_reply('BREAKER_STORE_CORRUPT window field ' .. tostring(field) .. '=' .. tostring(value))
end
local function advanceWindow(key, current, buckets)
  local oldest = current - buckets + 1
  local m = redis.call('HMGET', key, 't', 'lo', string.format('%d', current))
  local total, lo = tonumber(m[1]), tonumber(m[2])
  if (m[1] and total == nil) then return nil, nil, nil, nil, corrupt('t', m[1]) end
  if (m[2] and lo == nil) then return nil, nil, nil, nil, corrupt('lo', m[2]) end
  if (m[3] and tonumber(m[3]) == nil) then return nil, nil, nil, nil, corrupt(current, m[3]) end
  if total == nil or lo == nil or oldest - lo >= buckets then
    -- Rebuild: a new key, a reset, or a gap longer than the window.
    local fields = redis.call('HGETALL', key)
    local stale = {}
    total = 0
    for i = 1, #fields, 2 do
      local f = fields[i]
      if f ~= 't' and f ~= 'lo' then
        local b, c = tonumber(f), tonumber(fields[i + 1])
        if b == nil or c == nil then return nil, nil, nil, nil, corrupt(f, fields[i + 1]) end
        if b < oldest then stale[#stale + 1] = f else total = total + c end
      end
    end
    for i = 1, #stale do redis.call('HDEL', key, stale[i]) end
    lo = oldest
  elseif lo < oldest then
    local names = {}
    for b = lo, oldest - 1 do names[#names + 1] = string.format('%d', b) end
    local counts = redis.call('HMGET', key, unpack(names))
    local gone = 0
    for i = 1, #names do
      if counts[i] then
        local c = tonumber(counts[i])
        if c == nil then return nil, nil, nil, nil, corrupt(names[i], counts[i]) end
        gone = gone + c
      end
    end
    redis.call('HDEL', key, unpack(names))
    total = total - gone
    lo = oldest
  end
  -- The current bucket's count came with the first read (expiry never deletes it) unless a lag clamped
  -- it; clamping implies nothing was expired or rebuilt, so this late read still precedes every write.
  local raw = m[3]
  if current < lo then
    current = lo
    raw = redis.call('HGET', key, string.format('%d', current))
  end
  local mine = tonumber(raw or '0')
  if mine == nil then return nil, nil, nil, nil, corrupt(current, raw) end
  return total, current, lo, mine, nil
end
`;

const pad = (name: string) => `string.format('%0${COUNT_WIDTH}d', ${name})`;

/**
 * record: KEYS window, state, trips. ARGV now, bucketMs, buckets, threshold, probationThreshold,
 * failures, newTripId, historyLimit, sampleJson. Returns { sum, state, tripped (0/1), tripId }.
 */
export const recordScript = `${validateState}${advanceWindow}${pushTrip}
local now, bucketMs, buckets = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local threshold, probation, n = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local st = redis.call('HMGET', KEYS[2], 'state', 'tripId')
local state = st[1] or 'CLOSED'
local tripId = st[2] or ''
local bad = checkState(state)
if bad then return bad end
local sum, current, lo, mine, err = advanceWindow(KEYS[1], math.floor(now / bucketMs), buckets)
if err then return err end
sum = sum + n
if n > 0 then
  redis.call('HSET', KEYS[1], 't', ${pad('sum')}, 'lo', string.format('%d', lo), string.format('%d', current), ${pad('mine + n')})
else
  redis.call('HSET', KEYS[1], 't', ${pad('sum')}, 'lo', string.format('%d', lo))
end
-- The key lives one window past its last write: memory stays bounded once failures stop.
redis.call('PEXPIRE', KEYS[1], bucketMs * (buckets + 1))
-- The trip rule, tripCause in breakerPolicy.ts, written here again because the trip must be atomic
-- with the count; test/breaker/tripRuleCases.ts runs the same cases through this script and tripCause.
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
export const openManuallyScript = `${validateState}${advanceWindow}${pushTrip}
local st = redis.call('HGET', KEYS[2], 'state') or 'CLOSED'
local bad = checkState(st)
if bad then return bad end
if st == 'OPEN' then return false end
local sum, current, lo, mine, err = advanceWindow(KEYS[1], math.floor(tonumber(ARGV[2]) / tonumber(ARGV[5])), tonumber(ARGV[6]))
if err then return err end
redis.call('HSET', KEYS[1], 't', ${pad('sum')}, 'lo', string.format('%d', lo))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]) * (tonumber(ARGV[6]) + 1))
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
