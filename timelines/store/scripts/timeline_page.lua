-- Reads one page of status ids from a timeline, newest first, by offset and/or by id cursors. Status ids
-- and posted times grow together (next_status_id.lua), so the ZSET's score order is also id order and a
-- binary search over ranks finds where a cursor falls, even when the cursor's own status is gone.
-- KEYS[1]  home:{uid} or profile:{uid}   ZSET
-- KEYS[2]  user:{uid}                    HASH, only checked for existence (same slot as KEYS[1])
-- ARGV[1]  max_id: only ids older than this (exclusive); 0 for no bound
-- ARGV[2]  since_id: only ids newer than this (exclusive); 0 for no bound
-- ARGV[3]  offset from the newest id inside the bounds
-- ARGV[4]  count
-- returns  {id, id, ...} newest first, or nil when the user does not exist
local key = KEYS[1]
local max_id = tonumber(ARGV[1])
local since_id = tonumber(ARGV[2])
local offset = tonumber(ARGV[3])
local count = tonumber(ARGV[4])
local size = redis.call('ZCARD', key)
if size == 0 and redis.call('EXISTS', KEYS[2]) == 0 then
  return false
end

-- Number of members whose id is below bound (ascending ranks are oldest first).
local function count_below(bound)
  local lo, hi = 0, size
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if tonumber(redis.call('ZRANGE', key, mid, mid)[1]) < bound then
      lo = mid + 1
    else
      hi = mid
    end
  end
  return lo
end

local top = size
if max_id > 0 then
  top = count_below(max_id)
end
local bottom = 0
if since_id > 0 then
  bottom = count_below(since_id + 1)
end
local stop = top - 1 - offset
local start = math.max(bottom, top - offset - count)
if stop < start then
  return {}
end
local ids = redis.call('ZRANGE', key, start, stop)
local newest_first = {}
for i = #ids, 1, -1 do
  newest_first[#newest_first + 1] = ids[i]
end
return newest_first
