-- Adds or removes one member of a set that a status counts (likers:{S} -> like_count, reposts:{S} ->
-- repost_count) and sets the counter from the set's size in the same step: exact under any race, and
-- idempotent. Both keys share the status's slot.
-- KEYS[1]  status:{S}   HASH
-- KEYS[2]  the set      ZSET  member -> time
-- ARGV[1]  "add" or "remove"
-- ARGV[2]  member (a uid)
-- ARGV[3]  score (time), for "add"
-- ARGV[4]  counter field: like_count or repost_count
-- returns  1 if the set changed, 0 if not; -1 for "add" when the status is gone (nothing written)
local exists = redis.call('EXISTS', KEYS[1]) == 1
local changed
if ARGV[1] == 'add' then
  if not exists then
    return -1
  end
  changed = redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[2])
else
  changed = redis.call('ZREM', KEYS[2], ARGV[2])
end
if exists then
  redis.call('HSET', KEYS[1], ARGV[4], redis.call('ZCARD', KEYS[2]))
end
return changed
