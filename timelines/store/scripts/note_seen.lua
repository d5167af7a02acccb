-- Records that a user was seen (services.idle.note_seen), in the user's own hash: the idle sweep's drop
-- (drop_idle_timeline.lua) reads the same field in the same slot, so a visit and a drop never cross: either the
-- drop ran first and this reply says the home is dropped, or the drop sees the visit and keeps the home.
-- KEYS[1]  user:{uid}   HASH
-- ARGV[1]  now (epoch seconds)
-- returns  -1 when the user does not exist (nothing written), 1 when their home is idle-dropped, else 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return redis.call('HEXISTS', KEYS[1], 'idle')
