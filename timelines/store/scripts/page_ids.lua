-- Library (inlined by store.lua where a script says "-- include: page_ids"): one page of status ids from a
-- timeline, newest first, by offset and/or by id cursors. Status ids and posted times grow together
-- (next_status_id.lua), so the ZSET's score order is also id order and a binary search over ranks finds where a
-- cursor falls, even when the cursor's own status is gone.
--   page_ids(key, owner_key, max_id, since_id, offset, count)
--   key: the timeline ZSET; owner_key: its owner's hash, only checked for existence when the timeline is empty
--   max_id: only ids older than this (exclusive), 0 for no bound; since_id: only ids newer (exclusive), 0 for none
--   returns {id, id, ...} newest first, or false when the timeline is empty and its owner does not exist
local function page_ids(key, owner_key, max_id, since_id, offset, count)
  if max_id == 0 and since_id == 0 and count > 0 then
    -- No cursor (a first page, or paging by number): the ranks are known, one read.
    local ids = redis.call('ZREVRANGE', key, offset, offset + count - 1)
    if #ids == 0 and redis.call('EXISTS', owner_key) == 0 and redis.call('EXISTS', key) == 0 then
      return false
    end
    return ids
  end
  local size = redis.call('ZCARD', key)
  if size == 0 and redis.call('EXISTS', owner_key) == 0 then
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
end
