-- Drops the timeline of an idle owner (the idle sweep, services.idle): marks the owner's hash and deletes the
-- timeline and its repost tracking, all in the owner's slot. A home is kept when its owner was seen since the
-- cutoff (the "seen" field, else "signup"), so a visit racing the sweep wins; a list is dropped with its owner's
-- home, whatever its own field says. Idempotent.
-- KEYS[1]  user:{uid} or list:{id}                       HASH
-- KEYS[2]  home:{uid} or list:statuses:{id}              ZSET
-- KEYS[3]  home:reposts:{uid} or list:reposts:{id}       HASH
-- ARGV[1]  cutoff (epoch seconds): owners seen before it are idle; "" to drop without checking (a list)
-- ARGV[2]  now (epoch seconds), stored as the "idle" field
-- returns  1 when dropped now; 0 when it already was; -1 when the owner does not exist; else the owner's
--          last-seen time as a string (seen since the cutoff: kept)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if redis.call('HEXISTS', KEYS[1], 'idle') == 1 then
  return 0
end
if ARGV[1] ~= '' then
  local seen = redis.call('HGET', KEYS[1], 'seen') or redis.call('HGET', KEYS[1], 'signup') or '0'
  if tonumber(seen) >= tonumber(ARGV[1]) then
    return seen
  end
end
redis.call('HSET', KEYS[1], 'idle', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
return 1
