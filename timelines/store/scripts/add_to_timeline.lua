-- Adds statuses to a timeline and trims it, but only while its owner exists: a list deleted meanwhile (or a
-- user discarded) must not get its timeline back from a late fan-out, copy or refill, nor may a timeline the idle
-- sweep dropped (its owner holds "idle"; services.idle rebuilds it). Both keys share a slot.
-- KEYS[1]  user:{uid} or list:{id}            HASH, only checked for existence and the "idle" field
-- KEYS[2]  home:{uid} or list:statuses:{id}   ZSET
-- ARGV[1]  size to trim to (HOME_TIMELINE_SIZE)
-- ARGV[2..]  score, status id, score, status id, ...
-- returns  the number of statuses that were new, or -1 if the owner does not exist or is idle (nothing written)
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'idle') == 1 then
  return -1
end
local added = 0
-- ZADD in chunks: Lua's unpack() has a limit on how many values it can spread.
for i = 2, #ARGV, 200 do
  local last = math.min(i + 199, #ARGV)
  added = added + redis.call('ZADD', KEYS[2], unpack(ARGV, i, last))
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[1]) - 1)
return added
