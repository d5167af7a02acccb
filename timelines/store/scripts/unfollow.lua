-- An unfollow on one server, in one step: both sides of the graph (as remove_followee.lua and graph_remove.lua
-- do), then every status of the former followee that can still be in the follower's home (all those posted
-- since the home's oldest entry) is taken out of it, and a refill run of that home is numbered
-- (store.refill.start_refill_run) for the caller to queue. The keys span slots: a Redis Cluster does the same
-- in several round trips (store.unfollows).
-- KEYS[1]  following:{x}       ZSET
-- KEYS[2]  user:{x}            HASH
-- KEYS[3]  home:{x}            ZSET
-- KEYS[4]  refill:run:{x}...   STRING (keys.refill_run of KEYS[3])
-- KEYS[5]  followers:{y}       ZSET
-- KEYS[6]  user:{y}            HASH
-- KEYS[7]  profile:{y}         ZSET
-- ARGV[1]  y, the followee's uid
-- ARGV[2]  x, the follower's uid
-- ARGV[3]  how long a refill run's number lives (REFILL_RUN_TTL_SECONDS)
-- ARGV[4], ARGV[5]  optional: a channel and a message, published once a follow was removed (the unfollow's
--          event, after the write, without a round trip of its own)
-- returns  {-1} with nothing changed when user:{x} does not exist; {-1} when user:{y} does not exist (the
--          follower's side, a dangling edge, is removed); else {1 if there was a follow else 0, the number of
--          the refill run when one was numbered else 0, 1 if user:{y} has a domain (another server's account)
--          else 0, 1 if user:{x} has a domain (a follower on another server) else 0}
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'following', redis.call('ZCARD', KEYS[1]))
if redis.call('EXISTS', KEYS[6]) == 0 then
  return {-1}
end
redis.call('ZREM', KEYS[5], ARGV[2])
redis.call('HSET', KEYS[6], 'followers', redis.call('ZCARD', KEYS[5]))
local remote = redis.call('HEXISTS', KEYS[6], 'domain')
local remote_follower = redis.call('HEXISTS', KEYS[2], 'domain')
if removed == 0 then
  return {0, 0, remote, remote_follower}
end
if ARGV[4] then
  redis.call('PUBLISH', ARGV[4], ARGV[5])
end
local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
if #oldest == 0 then
  return {1, 0, remote, remote_follower}
end
local theirs = redis.call('ZRANGEBYSCORE', KEYS[7], oldest[2], '+inf')
if #theirs == 0 then
  return {1, 0, remote, remote_follower}
end
-- ZREM in chunks: Lua's unpack() has a limit on how many values it can spread.
for index = 1, #theirs, 200 do
  redis.call('ZREM', KEYS[3], unpack(theirs, index, math.min(index + 199, #theirs)))
end
local run = redis.call('INCR', KEYS[4])
redis.call('EXPIRE', KEYS[4], ARGV[3])
return {1, run, remote, remote_follower}
