-- Takes a repost out of one batch of timelines and forgets it as the entry standing for its original.
-- Each target is a pair of keys of one slot; the batch spans slots on one server, per slot on a cluster.
-- KEYS[2i-1]  home:{F} or list:statuses:{L}          ZSET
-- KEYS[2i]    home:reposts:{F} or list:reposts:{L}   HASH  original id -> repost id
-- ARGV[1]  original id
-- ARGV[2]  repost id
-- returns  {1 or 0 per target}: whether the repost was in that timeline
local removed = {}
for i = 1, #KEYS, 2 do
  local was = redis.call('ZREM', KEYS[i], ARGV[2])
  if redis.call('HGET', KEYS[i + 1], ARGV[1]) == ARGV[2] then
    redis.call('HDEL', KEYS[i + 1], ARGV[1])
  end
  removed[#removed + 1] = was
end
return removed
